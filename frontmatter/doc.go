// Package frontmatter is robotsmith's one reader of source files: the front matter of Hugo and
// Jekyll pages (YAML between `---` lines, Jekyll's also closed by `...`; TOML between `+++` lines;
// a JSON object) and whole configuration files (hugo.toml, _config.yml). Every format decodes into
// the same Nodes, each carrying its offset, so every key's file:line is known. It is lenient on
// keys robotsmith does not own (a key written twice takes the last value, any date form stays a
// value, unknown YAML tags are strings) and exact on the robots keys of SPEC §3, whose bad values
// are errors at their line, as is one given twice. A YAML syntax error is at the line of the fault
// (YAMLError, which robotsmith's configuration reader shares). A key that looks like a misspelt robots key is judged by what its value
// would have done (typos.go): an error where it would have hidden the page (`noindx: true`), a
// warning where it would have restricted it otherwise (`nofolow: true`), else nothing. Input is
// bounded: nesting deeper than 100 levels is a short error, maps of any size are read in linear
// time, YAML aliases are shared rather than expanded (Any expands them within a budget), and
// messages quote at most a short excerpt. Every *Error, warnings included, carries its
// problem.Code (source-syntax, robots-key-repeated, misspelt-robots-key, front-matter-skipped, ...)
// and, for a key given twice, the other place in Related.
//
// Usage:
//
//	doc, err := frontmatter.Parse("content/blog/a.md", src, frontmatter.Hugo)
//	if err != nil {
//		return err // *frontmatter.Error: "content/blog/a.md:3:9: front matter: ..."
//	}
//	inputs, err := doc.Robots()     // robots, noindex, nofollow, unavailable_after (and Hugo's params.*, expiryDate)
//	cascades, err := doc.Cascades() // Hugo cascade entries, with targets and their own robots inputs
//	keys := doc.RobotsKeys(nil, doc.Root, rules.FromFrontMatter) // the robots keys it writes, whatever their value
//	cfg, err := frontmatter.Decode("hugo.toml", src, frontmatter.TOML)
//	cs, err := cfg.CascadesAt(k)    // the same decoder for a site configuration's cascade
//
// github.com/adrg/frontmatter is not used: robotsmith needs each generator's own rules for
// finding the block (Jekyll: `---` on the first line, closed by `---` or `...`; Hugo: after blank
// lines, `---`, `+++` or a JSON object ending wherever the object ends), which adrg does not
// follow, and it decodes without positions, so it only ever found the block, copying the whole
// file to do so. YAML is parsed by yaml.v3 into its node tree (its own decoding refuses duplicate
// keys and is quadratic in them); TOML by go-toml's parser, the one Hugo uses, whose syntax tree
// keeps every key's range; JSON by encoding/json's token stream.
package frontmatter
