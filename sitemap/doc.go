// Package sitemap reads and prunes XML sitemaps and sitemap indexes (sitemaps.org 0.9, with
// Google's <xhtml:link rel="alternate" hreflang> annotations), one entry at a time: a file of
// 50,000 URLs and 50 MB is streamed, and memory holds about one entry.
//
// Usage:
//
//	r := sitemap.NewReader(f)
//	for {
//		e, err := r.Next()          // a <url> (or an index's <sitemap>), with its line
//		if err == io.EOF {
//			break
//		}
//		if err != nil {
//			return err              // *sitemap.Error with Line, Col and its Code; set File
//		}
//		... e.Loc, e.Line, e.Alternates[i].Hreflang, .Href, .Line; r.Kind() ...
//	}
//
//	p, err := sitemap.Prune(tmp, f, func(ref sitemap.Ref) bool {
//		return indexable(ref.URL)   // asked for each <loc>, then each alternate's href;
//	})                              // in an index, told each listed sitemap (ref.Index)
//	... if err == nil && p.Changed(): replace the file with tmp ...
//
//	p, l, err := sitemap.PruneLayout(tmp, bytes.NewReader(src), keep) // Prune, and the Layout
//	p, err = l.Prune(tmp, src, keep2)  // src pruned again with other decisions, no XML read
//
// The package reads no files and knows nothing of robots directives: the caller decides, given
// each URL and its line. The sitemap's own elements are recognised by local name in the root's
// namespace, whatever its prefix (<s:url> as well as <url>); alternates are <link> elements in
// the XHTML namespace with rel="alternate" and an href. A file whose root is neither <urlset>
// nor <sitemapindex> (an RSS feed, a text sitemap) is no error: Kind says so, and Prune copies
// it unchanged.
//
// Prune keeps every byte it does not remove: the prolog, a byte order mark, namespace
// declarations and prefixes, comments, CDATA sections, CRLF or CR line ends, a missing final
// line end, and the indentation of the entries kept. Pruning with a keep that accepts
// everything gives the input back byte for byte, and pruning the output again changes nothing.
//
// It tokenizes with encoding/xml's Decoder and copies raw bytes by the Decoder's InputOffset,
// from a recorder that feeds the Decoder one byte at a time and keeps only the bytes of the
// entry being read. The standard tokenizer gives what a hand-written scanner would have to
// get right again: well-formedness (an unclosed comment or a mismatched tag is an error with a
// line, not a silently damaged sitemap), entity and CDATA decoding of <loc>, and namespace
// prefixes resolved to their URIs. Its cost, a few allocations per token, is measured by
// BenchmarkPrune. A caller that prunes the same bytes many times with changing decisions (watch
// mode, as pages flip) keeps their Layout, the place of every token and the URLs of every entry,
// and prunes again from it at about a hundredth of that cost (BenchmarkLayoutPrune), with the
// same output byte for byte.
package sitemap
