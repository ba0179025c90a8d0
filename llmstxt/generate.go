package llmstxt

import (
	"bytes"
	"strings"

	"github.com/robotsmith/robotsmith/internal/markers"
)

// Info is what the generated file says about the site.
type Info struct {
	Title       string // the H1: the site's title
	Description string // the blockquote under it: the site's description; "" writes none
}

// Page is one page the generated file lists.
type Page struct {
	// URL is the page's URL as the file links it (absolute, or
	// root-relative when the site has no base URL).
	URL string
	// Markdown is the URL of the page's Markdown twin (an index.md or a .md
	// output beside the HTML), "" when it has none: where it exists, the
	// file links it instead of URL, as llmstxt.org asks.
	Markdown string
	// Title and Description come from the page's <title> and meta
	// description. A page without a title is listed by its URL.
	Title, Description string
	// Section is the H2 the page is listed under; pages of "" are listed
	// under RootSection.
	Section string
}

// RootSection is the H2 of the pages whose Section is "".
const RootSection = "Pages"

// Generate writes robotsmith's block of an llms.txt, in llmstxt.org's
// format, between markers.HTMLBegin and markers.HTMLEnd (HTML comments,
// which Markdown renders as nothing):
//
//	<!-- robotsmith: begin -->
//	# Site title
//
//	> The site's description
//
//	## Section
//
//	- [Page title](https://example.com/page/index.md): the page's description
//	<!-- robotsmith: end -->
//
// The H1 and the blockquote are written when site.Title is not "" (Update
// leaves them out when the owner's own text has an H1). Sections come in
// the order their first page comes in pages, and each section's pages in
// their order in pages: the caller's order, which is the site's. Titles,
// descriptions and URLs are written on one line each, with what would end
// a link's text, make a second link, or open a code span or HTML escaped
// (\[ \] \\ \` \<), and URLs percent-encode what a link destination cannot
// hold (spaces, parentheses, angle brackets, backslashes, control
// characters). Line breaks are "\n".
func Generate(site Info, pages []Page) []byte {
	var b bytes.Buffer
	b.WriteString(markers.HTMLBegin + "\n")
	if t := oneLine(site.Title); t != "" {
		b.WriteString("# " + heading(t) + "\n")
		if d := oneLine(site.Description); d != "" {
			b.WriteString("\n> " + escape(d) + "\n")
		}
	}
	var order []string
	bySection := map[string][]Page{}
	for _, p := range pages {
		s := oneLine(p.Section)
		if s == "" {
			s = RootSection
		}
		if _, ok := bySection[s]; !ok {
			order = append(order, s)
		}
		bySection[s] = append(bySection[s], p)
	}
	for _, s := range order {
		if b.Len() > len(markers.HTMLBegin)+1 {
			b.WriteString("\n")
		}
		b.WriteString("## " + heading(s) + "\n\n")
		for _, p := range bySection[s] {
			url := p.URL
			if p.Markdown != "" {
				url = p.Markdown
			}
			title := oneLine(p.Title)
			if title == "" {
				title = url
			}
			b.WriteString("- [" + escape(title) + "](" + destinationOf(url) + ")")
			if d := oneLine(p.Description); d != "" {
				b.WriteString(": " + escape(d))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(markers.HTMLEnd + "\n")
	return b.Bytes()
}

// Update returns existing (an llms.txt, nil when there is none) with
// robotsmith's block written from site and pages, and every byte outside
// the block kept:
//
//   - a file with a block gets it replaced in place, and any later block removed;
//   - a file without one gets it at the top when the block carries the
//     file's H1 (llmstxt.org wants the H1 first), after a byte order mark
//     and before the owner's text and a blank line, else at the end, after
//     a blank line;
//   - a missing file, or one of nothing but white space, becomes the block.
//
// The block's line breaks are the file's: CRLF when its first line ends
// with one.
//
// The block leaves out the H1 and the summary when the owner's text
// outside it has an H1 of its own: the owner's title stands. A begin
// marker without an end marker is an error (*markers.Error), and so is a
// *LocateError of the owner's text; nothing is written then.
func Update(existing []byte, site Info, pages []Page) ([]byte, error) {
	// A byte order mark stays first, whatever comes after it.
	head := existing[:len(existing)-len(bytes.TrimPrefix(existing, bom))]
	body := existing[len(head):]
	spans := markers.HTML.Find(body)
	outside := body
	if len(spans) > 0 {
		if _, err := markers.HTML.Merge(body, nil); err != nil {
			return nil, err
		}
		outside = nil
		prev := 0
		for _, s := range spans {
			outside = append(outside, body[prev:s.Start]...)
			prev = s.End
		}
		outside = append(outside, body[prev:]...)
	}
	own, err := parse(outside)
	if err != nil {
		return nil, err
	}
	if own.file.TitleLine > 0 {
		site = Info{}
	}
	block := Generate(site, pages)
	if i := bytes.IndexByte(body, '\n'); i > 0 && body[i-1] == '\r' {
		// The file's line breaks are CRLF: the block's are too.
		block = bytes.ReplaceAll(block, []byte("\n"), []byte("\r\n"))
	}
	out := bytes.Clone(head)
	switch {
	case len(spans) > 0:
		merged, err := markers.HTML.Merge(body, block)
		if err != nil {
			return nil, err
		}
		return append(out, merged...), nil
	case len(bytes.TrimSpace(body)) == 0:
		// Nothing but white space: the block alone.
		return append(out, block...), nil
	case oneLine(site.Title) != "":
		// The block carries the H1, which goes first, and a blank line after it.
		out = append(out, block...)
		out = append(out, block[len(bytes.TrimRight(block, "\r\n")):]...)
		return append(out, body...), nil
	}
	merged, err := markers.HTML.Merge(body, block)
	if err != nil {
		return nil, err
	}
	return append(out, merged...), nil
}

// oneLine collapses runs of white space (line breaks included) to one
// space and trims the ends.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// escaper escapes what would change the structure of a link line: the
// brackets and backslash of link syntax, a backtick (a code span would run
// over the link's end), and "<" (an autolink or raw HTML could).
var escaper = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`, "`", "\\`", `<`, `\<`)

func escape(s string) string { return escaper.Replace(s) }

// heading escapes a heading's text, and a final '#' that Markdown would
// read as a closing sequence.
func heading(s string) string {
	s = escape(s)
	if strings.HasSuffix(s, "#") {
		s = s[:len(s)-1] + `\#`
	}
	return s
}

// destinationOf percent-encodes what a link destination cannot hold as
// written: white space and control characters, parentheses (an unbalanced
// one would end it), angle brackets and backslashes.
func destinationOf(url string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(url); i++ {
		c := url[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(`()<>\`, c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
