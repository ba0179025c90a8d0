// Package headers writes robotsmith's block of a static host's `_headers`
// file: the X-Robots-Tag HTTP header for files that cannot carry a robots
// <meta> tag (PDFs, images, any non-HTML file), and for pages when asked.
//
// Two dialects are written, Netlify's and Cloudflare Pages'. Both hosts fold
// repeated X-Robots-Tag lines into one comma-joined header, so each File's
// Lines hold the generic value first and then one line per agent. Every file
// is matched by exactly one robotsmith rule. Netlify rules are exact paths;
// Cloudflare rules are exact paths too until the file would exceed
// Cloudflare's 100 rules, when files that share a decision are folded into
// `/folder/*` rules that change no other file's headers. The Cloudflare
// dialect begins with a rule for the preview host names
// (`https://:hash.:project.pages.dev/*`) that keeps the `noindex` Cloudflare
// sends on preview deployments.
//
// With Options.ContentUsage the block also sends the site's AI usage
// preference as a Content-Usage header (draft-ietf-aipref-attach) for every
// path, with one `/*` rule; LintContentUsage reports the user's rules that
// set it too. Cloudflare keeps one rule per path, so there the `/*` rule
// repeats the headers of the user's own `/*` rule, if there is one.
//
// The block sits between `# robotsmith: begin` and `# robotsmith: end`;
// Merge replaces it in the user's own `_headers` and keeps every other byte
// (a begin marker without an end marker is an error, never a guess),
// and Lint reports the user's rules that also set X-Robots-Tag for a file
// that robotsmith covers.
//
// Usage (the pipeline resolves the files, this package writes the format):
//
//	files := []headers.File{
//		{Path: "/files/report.pdf", Lines: d.HeaderLines()}, // rules: generic line, then agents
//		{Path: "/img/logo.png"}, // default decision: no rule, never folded over
//	}
//	old, _ := os.ReadFile("public/_headers") // may not exist
//	opt := headers.Options{Format: headers.Cloudflare, Existing: old, ContentUsage: "train-ai=n"}
//	block, err := headers.Block(files, opt)
//	if err != nil {
//		return err // limits that cannot be met, paths that cannot be written
//	}
//	for _, f := range headers.Lint(old, files, opt.Format) {
//		log.Printf("_headers:%d: %s: %s", f.Line, f.Path, f.Msg)
//	}
//	merged, err := headers.Merge(old, block)
//	if err != nil {
//		return err // a begin marker without an end marker: *headers.MarkerError
//	}
//	err = os.WriteFile("public/_headers", merged, 0o644)
//
// Paths in File are URL paths as served and not percent-encoded (the file's
// name: "/files/my report.pdf"); the block writes them percent-encoded the
// way both hosts compare them with a request's path.
package headers
