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
// Every error carries its problem.Code (header-path-unwritable, header-lines-invalid,
// header-too-many-rules, host-file-invalid, ...), through its sentinel (ErrPath, ErrLines, ...) or
// its own type, and prints as its problem.Problem; every Finding carries its Code
// (header-rule-overlaps, content-usage-overlaps, second-block, ...).
//
// Paths in File are URL paths as served and not percent-encoded (the file's
// name: "/files/my report.pdf"); the block writes them percent-encoded the
// way both hosts compare them with a request's path.
//
// # Other hosts
//
// The hosts that do not read `_headers` each have one function with the same
// inputs, which returns the whole new file (Result): Nginx (a file of exact
// locations the server block includes), Apache (robotsmith's block of the
// output's .htaccess), Caddy (directives the site block imports), Vercel
// (entries of vercel.json's headers) and Firebase (entries of firebase.json's
// hosting.headers). Each matches a path as its host compares it (decoded or
// as the request sent it, case-sensitively), so that every file is matched by
// exactly one of robotsmith's rules; a folder's path also gets its index.html.
// The JSON files have no room for a marker: Result.Record lists the entries
// robotsmith wrote, and the next build passes it back to replace exactly those.
//
//	old, _ := os.ReadFile("vercel.json") // nil when there is none
//	// rec is the previous build's Result.Record, kept by the caller; nil at first
//	r, err := headers.Vercel(files, headers.Options{Existing: old, Record: rec, ContentUsage: usage})
//	if err != nil {
//		return err // paths or values the host cannot match or send, its limits
//	}
//	for _, f := range r.Findings {
//		log.Print(f) // vercel.json:12: the user's entries that also set X-Robots-Tag
//	}
//	// write r.Data to vercel.json, and keep r.Record for the next build
//
// NginxInclude and CaddyImport give the one line the owner adds to the
// server's configuration.
package headers
