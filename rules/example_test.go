package rules_test

import (
	"fmt"

	"github.com/robotsmith/robotsmith/rules"
)

// A blog post whose front matter asks for nosnippet and a shorter video
// preview, under a section rule that makes every draft noindex.
func Example() {
	r, err := rules.New(rules.Config{Rules: []rules.Rule{{
		Paths:  []string{"/blog/drafts/**"},
		Values: []rules.Input{{Agent: "robots", Value: "noindex"}},
		Source: rules.Source{Kind: rules.FromRule, File: "robotsmith.yaml", Line: 9, Rule: 1},
	}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	// content/blog/post.md:
	//   ---
	//   robots:
	//     robots: nosnippet
	//     googlebot: max-video-preview:30
	//   ---
	fm := rules.Source{Kind: rules.FromFrontMatter, File: "content/blog/post.md", Line: 3, Key: "robots"}
	for _, path := range []string{"/blog/post/", "/blog/drafts/post/"} {
		d, _, err := r.Decide(rules.Item{Path: path, Inputs: []rules.Input{
			{Agent: "robots", Value: "nosnippet", Source: fm},
			{Agent: "googlebot", Value: "max-video-preview:30", Source: fm},
		}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(path, d.Class)
		for _, t := range d.Directives().Tags {
			fmt.Printf("  <meta name=%q content=%q>\n", t.Name, t.Content)
		}
	}
	// Output:
	// /blog/post/ public
	//   <meta name="robots" content="index, follow, nosnippet">
	//   <meta name="googlebot" content="index, follow, nosnippet, max-image-preview:large, max-video-preview:30">
	//   <meta name="bingbot" content="index, follow, nosnippet, max-image-preview:large, max-video-preview:-1">
	// /blog/drafts/post/ noindex
	//   <meta name="robots" content="noindex, follow, nosnippet">
}

// Every value knows where it came from, for `robotsmith explain`.
func ExampleResolver_Decide() {
	r, _ := rules.New(rules.Config{Rules: []rules.Rule{{
		Paths:  []string{"/files/**"},
		Values: []rules.Input{{Agent: "robots", Value: "noindex"}, {Agent: "googlebot", Value: "NoSnippet"}},
		Source: rules.Source{Kind: rules.FromRule, File: "robotsmith.yaml", Line: 14, Rule: 2},
	}}})
	d, _, _ := r.Decide(rules.Item{Path: "/files/report.pdf", Asset: true})
	for _, a := range d.Agents {
		for _, v := range a.Values {
			fmt.Printf("%s %s (%s)\n", a.Name, v.Token, v.Source)
		}
	}
	for _, l := range d.HeaderLines() {
		fmt.Println("X-Robots-Tag:", l)
	}
	// Output:
	// robots noindex (rule 2 at robotsmith.yaml:14)
	// robots follow (default)
	// googlebot noindex (rule 2 at robotsmith.yaml:14)
	// googlebot follow (default)
	// googlebot nosnippet (rule 2 at robotsmith.yaml:14)
	// googlebot max-image-preview:large (default)
	// googlebot max-video-preview:-1 (default)
	// bingbot noindex (rule 2 at robotsmith.yaml:14)
	// bingbot follow (default)
	// bingbot max-snippet:-1 (default)
	// bingbot max-image-preview:large (default)
	// bingbot max-video-preview:-1 (default)
	// X-Robots-Tag: noindex, follow
	// X-Robots-Tag: googlebot: nosnippet
}

func ExampleParseValue() {
	toks, warns, err := rules.ParseValue("NoIndex , none, max-snippet: 50, noodp, unavailable_after: Friday, 25-Jun-10 15:00:00 PST")
	fmt.Println(toks)
	fmt.Println(warns)
	fmt.Println(err)
	// Output:
	// [noindex noindex nofollow max-snippet:50 unavailable_after:2010-06-25T23:00:00Z]
	// [obsolete directive "noodp" is ignored by Google and Bing; dropped]
	// <nil>
}

// A source compiled once decides every file it owns, and files decided alike share one Verdict.
func ExampleMemo_Verdict() {
	r, _ := rules.New(rules.Config{})
	fm := rules.Source{Kind: rules.FromFrontMatter, File: "content/blog/_index.md", Line: 3, Key: "robots"}
	list, _, err := rules.Compile([]rules.Input{{Agent: "robots", Value: "noindex", Source: fm}})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := r.Memo()
	first, _, _ := m.Verdict(rules.Item{Path: "/blog/", Compiled: []*rules.Compiled{list}})
	pager, _, _ := m.Verdict(rules.Item{Path: "/blog/page/2/", Compiled: []*rules.Compiled{list}})
	fmt.Println(first.Class, first.Directives.Tags[0].Content, first == pager, m.Len())
	// Output:
	// noindex noindex, follow true 1
}

// Every language's tag lists noindex, whatever each language calls its taxonomy: a rule by kind.
// Matching says what of each rule matched, for `robotsmith explain`.
func ExampleResolver_Matching() {
	r, _ := rules.New(rules.Config{Rules: []rules.Rule{
		{
			Kinds:  []string{"taxonomy", "term"},
			Values: []rules.Input{{Agent: "robots", Value: "noindex, follow"}},
			Source: rules.Source{Kind: rules.FromRule, File: "robotsmith.yaml", Line: 12, Rule: 1},
		},
		{
			Kinds:  []string{"page"},
			Langs:  []string{"de", "fr"},
			Values: []rules.Input{{Agent: "googlebot", Value: "max-snippet:50"}},
			Source: rules.Source{Kind: rules.FromRule, File: "robotsmith.yaml", Line: 14, Rule: 2},
		},
	}})
	for _, it := range []rules.Item{
		{Path: "/fr/frtags/allez/page/2/", Kinds: []string{"term"}, Lang: "fr"}, // a pager page: its list's kind
		{Path: "/fr/posts/a/", Kinds: []string{"page"}, Lang: "fr"},
		{Path: "/posts/a/", Kinds: []string{"page"}, Lang: "en"},
	} {
		d, _, _ := r.Decide(it)
		fmt.Println(it.Path, d.Class, r.Matching(it))
	}
	// Output:
	// /fr/frtags/allez/page/2/ noindex [rule 1 at robotsmith.yaml:12 (kind: term)]
	// /fr/posts/a/ public [rule 2 at robotsmith.yaml:14 (kind: page, lang: fr)]
	// /posts/a/ public []
}

// A value is split into its directives as written: commas separate them, and spaces, semicolons and
// line breaks between known directives do too, with a warning. A date keeps its spaces and comma.
func ExampleSplitDirectives() {
	for _, v := range []string{
		"noindex, nofollow",
		"noindex nofollow",
		"noarchive; unavailable_after: Friday, 25-Jun-10 15:00:00 PST",
		"googlebot: noindex",
	} {
		items, warning := rules.SplitDirectives(v)
		fmt.Printf("%q\n", items)
		if warning != "" {
			fmt.Println("  " + warning)
		}
	}
	// Output:
	// ["noindex" "nofollow"]
	// ["noindex" "nofollow"]
	//   directives separated by spaces are read as "noindex, nofollow"; separate them with commas
	// ["noarchive" "unavailable_after: Friday, 25-Jun-10 15:00:00 PST"]
	//   directives separated by semicolons are read as "noarchive, unavailable_after: Friday, 25-Jun-10 15:00:00 PST"; separate them with commas
	// ["googlebot: noindex"]
}
