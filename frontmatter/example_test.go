package frontmatter_test

import (
	"fmt"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/rules"
)

func ExampleParse() {
	src := []byte(`---
title: Draft notes
robots:
  robots: noarchive
  googlebot-news: nosnippet
noindex: true
expiryDate: 2027-01-31
cascade:
  - _target: {path: /notes/**}
    nofollow: true
---
Text.
`)
	doc, err := frontmatter.Parse("content/notes/_index.md", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s, title %q on line %d, body %q\n", doc.Format, doc.String("Title"), doc.Line("title"), doc.Body)

	inputs, err := doc.Robots()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range inputs {
		fmt.Printf("%s: %s (%s)\n", in.Agent, in.Value, in.Source)
	}

	cascades, _ := doc.Cascades()
	for _, c := range cascades {
		more, _ := frontmatter.RobotsFrom(c.Values, rules.Source{Kind: rules.FromCascade, File: doc.File, Line: c.Line})
		fmt.Printf("cascade to %s: %s: %s (%s)\n", c.Target.Path, more[0].Agent, more[0].Value, more[0].Source)
	}

	_, err = frontmatter.Parse("content/bad.md", []byte("+++\ntitle = \"x\"\nrobots = \n+++\n"))
	fmt.Println(err)
	// Output:
	// yaml, title "Draft notes" on line 2, body "Text.\n"
	// googlebot-news: nosnippet (front matter robots.googlebot-news at content/notes/_index.md:3)
	// robots: noarchive (front matter robots.robots at content/notes/_index.md:3)
	// robots: noindex (front matter noindex at content/notes/_index.md:6)
	// robots: unavailable_after:2027-01-31 (front matter expiryDate at content/notes/_index.md:7)
	// cascade to /notes/**: robots: nofollow (cascade from content/notes/_index.md:9)
	// content/bad.md:3:10: front matter: toml: expected value but found '\n' instead
}
