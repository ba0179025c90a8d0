// Package robotstxt reads robots.txt as RFC 9309 says and as Google's crawler reads it, and
// answers whether a crawler may fetch a path, naming the line that decided.
//
// Usage:
//
//	f := robotstxt.Parse(body)                    // never fails; what Google skips is in f.Invalid
//	gpt := f.Crawler("GPTBot")                    // its groups, merged; or the "*" groups
//	d := gpt.Decide(robotstxt.Escape("/notes/café/"))
//	if !d.Allowed {
//		fmt.Printf("robots.txt:%d: %s: %s\n", d.Rule.Num, d.Rule.Key, d.Rule.Value)
//	}
//	for _, s := range f.Sitemaps { ... s.Value, s.Num ... }
//	for _, o := range f.Other { ... o.Key ("Content-Usage"), o.Value, o.Num, o.Group ... }
//	if by := gpt.Overruled(&f.Groups[g].Rules[i]); by != nil { ... cancelled by line by.Num ... }
//
// The package is pure: it reads no files. Lines is the tokenizer (every line, with Google's line
// numbers, BOM and CR/LF/CRLF handling, the misspelt keys and missing colons Google accepts, and
// Google's line-length limit); Parse builds the File model from it (groups as written, each line
// with its number); Crawler and Decide are the matcher. A File is read-only after Parse and safe
// to share between goroutines; a Crawler is built once per crawler and asked about every path.
//
// What Google does, and so this package:
//
//   - A group is one or more User-agent lines and the rules after them; it ends at the next
//     User-agent line after a rule. Other lines (Sitemap, Crawl-delay, unknown keys) end nothing.
//     Rules before the first User-agent line are obeyed by no crawler (File.Stray).
//   - A crawler obeys every group that names its product token (ASCII letters, '-' and '_',
//     ignoring case; "Googlebot/2.1" and "Googlebot Images" in a file name "Googlebot"), merged
//     into one; only when none names it, the groups of "*" merged into one.
//   - Of the rules that match, the longest pattern (in octets, after percent-encoding) decides; on
//     equal length Allow wins. "*" matches any run of octets, a final "$" the end of the path.
//     An empty value matches everything with length 0 and so never disallows.
//   - Allow "/x/index.html" (any last segment starting with "index.htm") also allows "/x/".
//   - "/robots.txt" itself is always allowed, whatever the rules say (RFC 9309 section 2.2.2;
//     Implicit): no line decides it.
//   - Keys are matched by prefix ignoring case ("Disallowed:" is a disallow line), with the typos
//     Google accepts: useragent, user agent, dissallow, dissalow, disalow, diasllow, disallaw,
//     site-map. A missing colon is accepted between exactly two words ("Disallow /x").
//   - Only the first 500 KiB of the file and the first 16,663 octets of each line are read.
//
// Why not a library: jimsmart/grobotstxt, the Go port of Google's parser, answers one
// (robots.txt, agent, URL) question per full parse and keeps no model, so neither the merged
// groups nor the parsed lines are there for later checks (a group of one agent cancelled by
// another group of the same agent); it also departs from Google on purpose (digits and other
// token characters in user-agent names; Unicode white space trimmed), has a package-level
// switch for typos and a leftover panic in its line parser, and has not followed upstream
// since 2022. temoto/robotstxt is not RFC-exact (the first of equal-length rules wins, not
// Allow; wildcards are matched by regular expressions whose length is not the pattern's). What
// Google's matcher does is small and fully specified by its test suite, which google_test.go
// replays case by case.
package robotstxt
