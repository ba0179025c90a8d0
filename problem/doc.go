// Package problem is what robotsmith reports: every error, finding and warning is one Problem, with
// a stable Code and name (RS0103 noindex-blocked-by-robots-txt, SPEC §1), a Severity, the place it
// is about and, where there are two sides, the other one. Text, JSON, SARIF and GitHub annotations
// are renderings of that value; nothing parses a message back to find a file or a line.
//
// Usage:
//
//	p := problem.New(problem.RobotsKeyRepeated, problem.Position{File: "content/a.md", Line: 7},
//		`front matter: "noindex" given again (first at line 3)`)
//	p.Related = []problem.Related{{Position: problem.Position{File: "content/a.md", Line: 3}, Msg: "first given here"}}
//	p.Error()                 // content/a.md:7: front matter: "noindex" given again (first at line 3)
//	p.Code, p.Code.Name()     // RS0305 robots-key-repeated
//
//	// The error types of robotsmith's packages (*frontmatter.Error, *config.Error, *rules.Error,
//	// rules.Warning, *headers.PathError, ...) keep their own fields and text, and each gives its
//	// Problem; Of and CodeOf find it through wrapping and errors.Join:
//	if p, ok := problem.Of(err); ok {
//		fmt.Println(p.Code, p.Code.Name(), p.Severity) // RS0401 malformed-directive error
//	}
//
// # Codes
//
// A code is RS and four digits, and never changes meaning once released: a code that goes out of
// use stays in the table, its number never given to another problem. The first two digits are the
// area, the last two number the problems of the area in the order they were added:
//
//	RS00xx  robotsmith's own: a count of problems not listed, a run stopped, the configured command
//	RS01xx  signal findings: contradictions between a site's signals (SPEC §7, §9)
//	RS02xx  robotsmith's configuration (robotsmith.yaml), its rules and their selectors
//	RS03xx  front matter and the generator's sources (cascades, Jekyll defaults, Hugo modules)
//	RS04xx  directive values: robots values, agent names
//	RS05xx  the output folder, its files and pages: robotsmith's marked blocks in them
//	RS06xx  sitemaps
//	RS07xx  robots.txt and the AI preferences (robots_txt, ai)
//	RS08xx  headers and hosts: _headers and the other hosts' files
//	RS09xx  safety, files and I/O
//
// The table (All) is the one source of every code's name, severity, summary and help: the
// reference documentation and the rules of a SARIF log are generated from it.
//
// # Severities
//
// Each code has a default severity. An Error fails the run: nothing is written. A Finding is a
// contradiction between the site's signals: `check` exits 1 on it, `build` prints it. A Warning is
// printed; `check --strict` raises it to a Finding (Problem.Severity holds the raised one).
//
// The package is pure: it reads no files and does no I/O.
package problem
