// Package indexability is the site's indexability record as a file (SPEC §7, §11): for every URL of
// the output, everything a search engine or an AI crawler is told about it, each value with the
// place it comes from, one URL a line. `build --record FILE` and `check --record FILE` write it;
// `robotsmith diff` reads two of them and compares them URL by URL.
//
// The file is JSON Lines: a header line ({"format": "robotsmith-indexability", "version": 1}), then
// one Record a line, sorted by URL in byte order, each URL once. It holds no time, no absolute path
// and nothing of the order files were found in, so that two runs over the same input write the same
// bytes, and a diff of a site with itself finds nothing. schema/record.schema.json is its JSON
// Schema.
//
// Each value carries its Source, as explain gives it ("rule 2 at robotsmith.yaml:14"), with the file
// and line apart: a record kept from the last deploy is all that diff has of that build, and it
// prints where each new value comes from. Sources are paths of the site relative to its root, which
// are as stable as the input; diff compares values, never sources, so that a line moved within
// robotsmith.yaml changes nothing.
//
// Usage:
//
//	w := indexability.NewWriter(f)
//	for _, r := range recordsInURLOrder {
//		if err := w.Write(&r); err != nil { ... } // ErrOrder for a URL not after the last one
//	}
//	err := w.Close() // the header alone for an empty site; flushes, leaves f open
//
//	rd := indexability.NewReader(f, "old.jsonl") // the name is for messages: old.jsonl:12: ...
//	for {
//		r, err := rd.Next()
//		if err == io.EOF { break }
//		if err != nil { ... } // *Error: file:line, the line's fault
//		r.Index("googlebot") // "" when Google may index it, else why not
//	}
//
// Writer and Reader hold one line at a time: a record of 100,000 URLs is written and read in the
// memory of its longest line.
package indexability
