package frontmatter_test

import (
	"fmt"

	"github.com/robotsmith/robotsmith/frontmatter"
)

func ExampleParse() {
	src := []byte(`---
title: Draft notes
robots:
  robots: noarchive
  googlebot-news: nosnippet
noindex: true
expiryDate: 2027-01-31
params:
  nofollow: true
cascade:
  - _target: {path: /notes/**}
    robots: nosnippet
---
Text.
`)
	doc, err := frontmatter.Parse("content/notes/_index.md", src, frontmatter.Hugo)
	if err != nil {
		fmt.Println(err)
		return
	}
	title, _ := doc.Root.Fold("Title")
	fmt.Printf("%s, title %q on line %d, body %q\n", doc.Format, title.Value.String(), doc.Line(title.Off), doc.Body)

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
		in := c.Inputs[0]
		fmt.Printf("cascade to %s: %s: %s (%s)\n", c.Target.Path, in.Agent, in.Value, in.Source)
	}

	_, err = frontmatter.Parse("content/bad.md", []byte("+++\ntitle = \"x\"\nrobots = \n+++\n"), frontmatter.Hugo)
	fmt.Println(err)
	// Output:
	// yaml, title "Draft notes" on line 2, body "Text.\n"
	// googlebot-news: nosnippet (front matter robots.googlebot-news at content/notes/_index.md:5)
	// robots: noarchive (front matter robots.robots at content/notes/_index.md:4)
	// robots: noindex (front matter noindex at content/notes/_index.md:6)
	// robots: unavailable_after:2027-01-31 (front matter expiryDate at content/notes/_index.md:7)
	// robots: nofollow (front matter params.nofollow at content/notes/_index.md:9)
	// cascade to /notes/**: robots: nosnippet (cascade from content/notes/_index.md:12)
	// content/bad.md:3:10: front matter: toml: unexpected character U+000A at start of value
}
