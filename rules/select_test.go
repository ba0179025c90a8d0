package rules

import (
	"strings"
	"testing"
)

const (
	spec2      = "SPEC §2: a rule selects with path, kind and lang, and matches when every selector it has matches"
	spec2Kinds = "SPEC §2: kind takes the generator's own names"
	spec2Pager = "SPEC §2: a pager page has its list page's kind and language"
)

func selRule(kinds, langs, paths []string) Rule {
	return Rule{Paths: paths, Kinds: kinds, Langs: langs,
		Values: []Input{{Agent: "robots", Value: "noindex"}},
		Source: Source{Kind: FromRule, File: "robotsmith.yaml", Line: 14, Rule: 1}}
}

func list(s ...string) []string { return s }

// itemKinds is an item's kinds: none for "", a Jekyll draft's two for "drafts posts".
func itemKinds(k string) []string { return strings.Fields(k) }

// TestSelectors covers every kind of both generators and of any site, languages, and selectors
// combined: the rule matches (the item is noindex, Matching names what matched) or it does not.
func TestSelectors(t *testing.T) {
	page := func(kind, lang, path string) Item { return Item{Path: path, Kinds: itemKinds(kind), Lang: lang} }
	file := func(kind, lang, path string) Item {
		return Item{Path: path, Kinds: itemKinds(kind), Lang: lang, Asset: true}
	}
	cases := []struct {
		desc, source string
		rule         Rule
		item         Item
		want         string // Matched.String() without the rule's place, "" for no match
	}{
		// Hugo's kinds (gohugo.io/methods/page/kind: home, page, section, taxonomy, term; 404 for
		// the 404 page).
		{"hugo home", spec2Kinds, selRule(list("home"), nil, nil), page("home", "en", "/"), "kind: home"},
		{"hugo section", spec2Kinds, selRule(list("section"), nil, nil), page("section", "en", "/posts/"), "kind: section"},
		{"hugo page", spec2Kinds, selRule(list("page"), nil, nil), page("page", "en", "/posts/a/"), "kind: page"},
		{"hugo taxonomy", spec2Kinds, selRule(list("taxonomy"), nil, nil), page("taxonomy", "fr", "/fr/frtags/"), "kind: taxonomy"},
		{"hugo term", spec2Kinds, selRule(list("term"), nil, nil), page("term", "fr", "/fr/frtags/allez/"), "kind: term"},
		{"hugo 404", spec2Kinds + "; Hugo's 404 page has kind 404", selRule(list("404"), nil, nil), page("404", "en", "/404.html"), "kind: 404"},
		{"hugo page is not a section", spec2Kinds, selRule(list("section"), nil, nil), page("page", "en", "/posts/a/"), ""},
		{"hugo term is not a taxonomy", spec2Kinds, selRule(list("taxonomy"), nil, nil), page("term", "en", "/tags/go/"), ""},
		{"a list of kinds, the second matching", spec2Kinds + " (a string or a list)", selRule(list("taxonomy", "term"), nil, nil), page("term", "fr", "/fr/frtags/allez/"), "kind: term"},
		{"a pager page has its list's kind", spec2Pager, selRule(list("taxonomy", "term"), nil, nil), page("term", "fr", "/fr/frtags/allez/page/2/"), "kind: term"},
		{"an RSS feed has its page's kind", "SPEC §2: an output format takes its page's decision", selRule(list("taxonomy", "term"), nil, nil), file("taxonomy", "fr", "/fr/frtags/index.xml"), "kind: taxonomy"},
		// Jekyll's kinds: the types of its defaults scopes (jekyllrb.com/docs/configuration/front-matter-defaults).
		{"jekyll pages", spec2Kinds, selRule(list("pages"), nil, nil), page("pages", "", "/about/"), "kind: pages"},
		{"jekyll posts", spec2Kinds, selRule(list("posts"), nil, nil), page("posts", "", "/2024/01/02/a.html"), "kind: posts"},
		{"jekyll drafts", spec2Kinds, selRule(list("drafts"), nil, nil), page("drafts posts", "", "/2024/01/02/wip.html"), "kind: drafts"},
		{"a jekyll draft is a post too", "Jekyll 4.3 document.rb: a draft's type in defaults scopes is its collection's, posts", selRule(list("posts"), nil, nil), page("drafts posts", "", "/2024/01/02/wip.html"), "kind: posts"},
		{"a jekyll post is not a draft", spec2Kinds, selRule(list("drafts"), nil, nil), page("posts", "", "/2024/01/02/a.html"), ""},
		{"jekyll collection label", spec2Kinds + ": each collection's label", selRule(list("recipes"), nil, nil), page("recipes", "", "/recipes/soup/"), "kind: recipes"},
		{"jekyll collection label in another case", spec2Kinds + "; config values are case-insensitive", selRule(list("Recipes"), nil, nil), page("recipes", "", "/recipes/soup/"), "kind: recipes"},
		{"jekyll post is not a page", spec2Kinds, selRule(list("pages"), nil, nil), page("posts", "", "/2024/01/02/a.html"), ""},
		// Any site.
		{"file: a PDF of no page", "SPEC §2: file is a non-HTML file", selRule(list("file"), nil, nil), file("", "", "/files/x.pdf"), "kind: file"},
		{"file: a bundle resource", "docs/reference/configuration.md: a bundle resource is a file, in its page's language", selRule(list("file"), nil, nil), file("", "fr", "/fr/posts/a/photo.jpg"), "kind: file"},
		{"file: a page's feed is a file too", "SPEC §2: file is a non-HTML file", selRule(list("file"), nil, nil), file("section", "en", "/posts/index.xml"), "kind: file"},
		{"file is not a page", "SPEC §2: file is a non-HTML file", selRule(list("file"), nil, nil), page("page", "en", "/posts/a/"), ""},
		{"html: a page", "SPEC §2: html is any page", selRule(list("html"), nil, nil), page("page", "en", "/posts/a/"), "kind: html"},
		{"html: a page of no source or generator", "SPEC §2: html is any page", selRule(list("html"), nil, nil), page("", "", "/legacy.html"), "kind: html"},
		{"html is not a file", "SPEC §2: html is any page", selRule(list("html"), nil, nil), file("", "", "/files/x.pdf"), ""},
		{"a kind does not match a file of no page", spec2Kinds, selRule(list("page"), nil, nil), file("", "", "/files/x.pdf"), ""},
		// Languages.
		{"lang", "SPEC §2: lang is a language the generator's config defines", selRule(nil, list("fr"), nil), page("taxonomy", "fr", "/fr/frtags/"), "lang: fr"},
		{"lang in another case", "SPEC §2; Hugo lower-cases language keys", selRule(nil, list("FR"), nil), page("page", "fr", "/fr/a/"), "lang: fr"},
		{"lang list", "SPEC §2 example lang: [de, fr]", selRule(nil, list("de", "fr"), nil), page("page", "fr", "/fr/a/"), "lang: fr"},
		{"another language", "SPEC §2", selRule(nil, list("de", "fr"), nil), page("page", "en", "/a/"), ""},
		{"a file of no page has no language", "docs/reference/configuration.md: files of no page have no language", selRule(nil, list("fr"), nil), file("", "", "/fr/x.pdf"), ""},
		// Combined.
		{"kind and lang both match", spec2 + "; SPEC §2 example kind: page, lang: [de, fr]", selRule(list("page"), list("de", "fr"), nil), page("page", "de", "/de/a/"), "kind: page, lang: de"},
		{"kind matches, lang does not", spec2, selRule(list("page"), list("de", "fr"), nil), page("page", "en", "/a/"), ""},
		{"lang matches, kind does not", spec2, selRule(list("page"), list("de", "fr"), nil), page("section", "de", "/de/"), ""},
		{"path, kind and lang all match", spec2, selRule(list("taxonomy", "term"), list("fr"), list("/fr/**")), page("term", "fr", "/fr/frtags/allez/"), "path: /fr/**, kind: term, lang: fr"},
		{"path does not match", spec2, selRule(list("term"), list("fr"), list("/tags/**")), page("term", "fr", "/fr/frtags/allez/"), ""},
		{"path alone", spec2, selRule(nil, nil, list("/tags/**", "/fr/frtags/**")), page("term", "fr", "/fr/frtags/allez/"), "path: /fr/frtags/**"},
		{"path and file: the PDFs of a folder", spec2, selRule(list("file"), nil, list("/docs/**")), file("", "", "/docs/a.pdf"), "path: /docs/**, kind: file"},
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			r, err := New(Config{Defaults: []Input{}, Rules: []Rule{tc.rule}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range r.Matching(tc.item) {
				got = append(got, strings.TrimPrefix(m.String(), "rule 1 at robotsmith.yaml:14 "))
			}
			want := []string(nil)
			if tc.want != "" {
				want = []string{"(" + tc.want + ")"}
			}
			if strings.Join(got, ";") != strings.Join(want, ";") {
				t.Errorf("Matching: got %q, want %q (%s)", got, want, tc.source)
			}
			d, _, err := r.Decide(tc.item)
			if err != nil {
				t.Fatal(err)
			}
			// An error page gets no tag whatever matches it (SPEC §5).
			if noindex := d.Class == NonPublic; d.Class != ErrorPage && noindex != (tc.want != "") {
				t.Errorf("Decide: class %s, want the rule's noindex %v (%s)", d.Class, tc.want != "", tc.source)
			}
			v, _, _ := r.Memo().Verdict(tc.item)
			if v.Class != d.Class {
				t.Errorf("Memo: class %s, Decide %s", v.Class, d.Class)
			}
		})
	}
}

// TestSelectorErrors: a rule needs a selector, and an empty kind or lang is no selector.
func TestSelectorErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		rule Rule
		want string
	}{
		{"no selector", selRule(nil, nil, nil), "robotsmith.yaml:14: rule 1: rule has no path, kind or lang"},
		{"an empty kind", selRule(list("page", " "), nil, nil), "robotsmith.yaml:14: rule 1: an empty kind"},
		{"an empty lang", selRule(nil, list(""), nil), "robotsmith.yaml:14: rule 1: an empty lang"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := New(Config{Rules: []Rule{tc.rule}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestMemoKeysOnSelectors: files at the same path but of another kind or language are decided
// apart, and files alike in everything a rule reads share one verdict.
func TestMemoKeysOnSelectors(t *testing.T) {
	r, err := New(Config{Rules: []Rule{
		selRule(list("taxonomy", "term"), nil, nil),
		{Langs: list("fr"), Values: []Input{{Agent: "googlebot", Value: "nosnippet"}}, Source: Source{Kind: FromRule, Rule: 2}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	m := r.Memo()
	verdict := func(it Item) *Verdict {
		v, _, err := m.Verdict(it)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	term := verdict(Item{Path: "/x/", Kinds: list("term"), Lang: "en"})
	page := verdict(Item{Path: "/x/", Kinds: list("page"), Lang: "en"})
	termFr := verdict(Item{Path: "/x/", Kinds: list("term"), Lang: "fr"})
	if term == page || term.Class != NonPublic || page.Class != Public {
		t.Errorf("same path, kinds term and page: got %s and %s, want noindex and public, two verdicts", term.Class, page.Class)
	}
	if termFr == term {
		t.Error("same path and kind, languages en and fr: one verdict, want two (rule 2 gives fr nosnippet)")
	}
	if again := verdict(Item{Path: "/y/", Kinds: list("taxonomy"), Lang: "en"}); again != term {
		t.Error("a taxonomy at another path: want the term's verdict shared (the same rules match)")
	}
	if m.Len() != 3 {
		t.Errorf("Memo.Len() = %d, want 3", m.Len())
	}
}
