// Package frontmatter reads the front matter of Hugo and Jekyll source pages
// (YAML between `---` lines, TOML between `+++` lines, or a JSON object at the
// start of the file) and yields the robots directives of SPEC §3 with the
// file and line each came from. It only parses: package rules decides.
//
// Usage:
//
//	doc, err := frontmatter.Parse("content/blog/a.md", src)
//	if err != nil {
//		return err // *frontmatter.Error: "content/blog/a.md:3:9: front matter: ..."
//	}
//	inputs, err := doc.Robots()       // robots, noindex, nofollow, unavailable_after, expiryDate
//	cascades, err := doc.Cascades()   // Hugo cascade entries with their targets
//	for _, c := range cascades {
//		more, err := frontmatter.RobotsFrom(c.Values, rules.Source{Kind: rules.FromCascade, File: doc.File, Line: c.Line})
//		...
//	}
//
// Keys are case-insensitive, as Hugo lower-cases them. Positions are kept as
// offsets in the file and turned into line:col only for Line and for errors,
// which are *Error values printed as "file:line:col: msg".
package frontmatter
