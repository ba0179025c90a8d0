// Package rewrite finds and rewrites the robots <meta> tags of one generated
// HTML page (SPEC §5) without touching any other byte.
//
// It walks the page with the golang.org/x/net/html tokenizer and splices
// bytes by offset: it never builds a DOM and never re-serialises markup, so
// unquoted attributes, upper-case tags, a BOM, CRLF line ends, non-UTF-8
// bytes and "</head>" inside scripts, strings or comments all survive.
//
// # Call sequence
//
// A caller first scans the page, decides, then rewrites:
//
//	page, err := rewrite.Scan(bytes.NewReader(src), agents) // 1. what the page carries
//	if err != nil || !page.HTML {
//		return // not a document: leave it byte-identical
//	}
//	d := decide(page)                                      // 2. rules.Directives for the page
//	var out bytes.Buffer
//	err = rewrite.Rewrite(&out, bytes.NewReader(src), d)   // 3. apply them
//
// A caller that processes page after page makes the same three calls on a
// [Processor], which keeps its buffers from page to page and tokenizes the
// page's head once less:
//
//	var p rewrite.Processor                  // one for each goroutine
//	page, err := p.Scan(src, isAgent)         // 1. what the page carries
//	d := decide(page)                         // 2. the caller's decision
//	changed, err := p.Splice(&out, d)         // 3. the page with d applied, if it differs
//
// [Process] is the three calls on one page held in memory.
//
// # What counts as a robots tag
//
// A robots-family tag is a <meta> whose name attribute (any case, trimmed) is
// rules.IsAgent, one of the agents passed to Scan or in Directives.Agents, or
// the name of one of Directives.Tags. <meta property=...>, <meta name=description>
// and so on are never touched. Decisions about where a tag is real:
//
//   - Inside <script>, <style>, <textarea>, <title>, comments and attribute
//     values it is text, not a tag.
//   - Inside <template> it is inert content, not a tag.
//   - Inside <noscript> it IS a tag: an HTML parser with scripting off (the
//     first pass of a crawler) reads it, so it is reported and removed. The
//     new block is never placed inside <noscript>, and a <meta http-equiv=refresh>
//     inside <noscript> does not make the page a redirect stub (it only sends
//     visitors without JavaScript elsewhere).
//   - In the body it is a tag too (Google reads body robots tags): it is
//     reported and removed, but the new block always goes in the head.
//
// # Canonical and hreflang links
//
// The same pass reports the head's <link rel="canonical"> and <link
// rel="alternate" hreflang="..."> (Page.Links, with their lines) and the href
// of its first <base> (Page.Base), as written: a caller that checks where a
// page's canonical and hreflang point resolves them, without reading the page
// again. Links in the body, in <template> or in raw text are not the head's;
// those in the head's <noscript> are (a crawler's first pass reads them).
//
// # What counts as an HTML document
//
// A page is a document when a doctype, <html>, <head> or <body> appears
// before (or as) the first token that ends the head. A fragment or a
// verification file has none of them; [Scan] reports it with HTML false and
// nothing else, and [Rewrite] leaves it byte-identical.
//
// # Where the block goes
//
// Rewrite writes the tags of rules.Directives between <!-- robotsmith --> and
// <!-- /robotsmith -->, one tag per line, indented like the line the block
// starts on, with the page's line ending (CRLF if the page's first line ends
// in CRLF) and the page's tag style (" />" if the head's other void tags, or
// else its robots tags, are written that way). The block goes:
//
//  1. where the first robots tag or robotsmith block directly in the head
//     stood (it replaces it, and tags next to it on the same line);
//  2. else right after the first <meta charset> (or http-equiv content-type),
//     on its own line below it when the tag ends its line;
//  3. else at the start of the head: before the first token after <head>,
//     or, when the page has no <head> tag, where HTML implies the head. No
//     literal <head> is written there: the block's <meta> tags open the head
//     exactly as the parser would, and no other byte of the page changes.
//
// After the tags, the block records every robots tag it took from the page (and
// every record of the block it replaces), one comment each:
//
//	<!-- robotsmith: from the page, line 7: robots="noindex, nofollow" -->
//
// Scan reports these records as Found with Kept set, so a later run over the
// same output still merges what the theme or the author wrote: rewriting twice
// equals rewriting once, for the page and for its decision.
//
// Every other robots tag, robotsmith block, and unpaired robotsmith marker
// comment is removed. A removed tag that stood alone on its line takes the
// line's leading blanks and its line ending with it; otherwise only its bytes
// go. In the pathological case of bare "<" characters right before a removed
// tag, each is written "&lt;", the text it read as: no new markup forms out of
// the bytes around it, the page shows the same text, and its head ends where
// it ended (dropping them would move what follows into the head, and the next
// run would read the page's tag style from there).
//
// # Speed
//
// Only the head (up to the token that ends it) is always tokenized. In the
// rest of the page a byte search looks for "<meta" (any case) whose tag names
// a robots agent, and for "robotsmith" markers; when there is none, the rest
// is copied as it is. Otherwise the tokenizer runs on, and stops after the
// last such candidate.
//
// A page that Rewrite changes is read into memory whole: the body search has
// to see the rest of the page before deciding whether to tokenize it. With
// zero Directives Rewrite is a plain io.Copy.
package rewrite
