package diff_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/robotsmith/robotsmith/diff"
	"github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/testsupport/recordtest"
)

// A rule widened from /drafts/** to /** takes the whole site out of the index, the home page first.
func ExampleRun() {
	home, post := recordtest.Page("/"), recordtest.Page("/blog/a/")
	old := record(home, post)
	recordtest.Noindex(&home, recordtest.Rule(1, 12))
	recordtest.Noindex(&post, recordtest.Rule(1, 12))
	new := record(home, post)

	failOn, _ := diff.ParseFailOn(diff.DefaultFailOn)
	rep, err := diff.Run(os.Stdout,
		indexability.NewReader(bytes.NewReader(old), "old.jsonl"),
		indexability.NewReader(bytes.NewReader(new), "new.jsonl"),
		diff.Options{Format: diff.Text, FailOn: failOn})
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println("failures:", len(rep.Failures))
	// Output:
	// robotsmith diff: 2 URLs -> 2 URLs: 2 URLs changed
	//   2 URLs leave the index (2 noindex), 0 enter it; in the index: 2 -> 0
	//     2 noindex: rule 1 at robotsmith.yaml:12 (first /)
	//   the home page / leaves the index: noindex (rule 1 at robotsmith.yaml:12)
	//   2 URLs leave the sitemap, 0 enter it: 2 -> 0 listed
	//
	// /  (home page)  leaves the index: noindex
	//   robots: index -> noindex  (rule 1 at robotsmith.yaml:12)
	//   sitemap: listed -> not listed  (rule 1 at robotsmith.yaml:12)
	// /blog/a/  leaves the index: noindex
	//   robots: index -> noindex  (rule 1 at robotsmith.yaml:12)
	//   sitemap: listed -> not listed  (rule 1 at robotsmith.yaml:12)
	// robotsmith diff: fails on home: the home page / leaves the index: noindex (rule 1 at robotsmith.yaml:12)
	// robotsmith diff: fails on noindex:10%: 2 of 2 URLs in the index leave it (100.0%)
	// failures: 2
}

// record is the record file of recs, given in URL order.
func record(recs ...indexability.Record) []byte {
	var b bytes.Buffer
	w := indexability.NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}
