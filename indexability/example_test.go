package indexability_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/robotsmith/robotsmith/indexability"
)

// A record is written in URL order and read back one URL at a time.
func Example() {
	def := indexability.Source{Text: "default"}
	rule := indexability.Source{Text: "rule 1 at robotsmith.yaml:12", File: "robotsmith.yaml", Line: 12}
	crawlable := indexability.RobotsTxt{Googlebot: indexability.Crawl{Crawlers: 1}, Bingbot: indexability.Crawl{Crawlers: 1}}
	recs := []indexability.Record{
		{URL: "/", File: "index.html", Home: true, Class: indexability.Public, RobotsTxt: crawlable,
			Agents: []indexability.Agent{{Name: "robots", Directives: "index, follow", From: []indexability.From{{Directives: "index, follow", Source: def}}}}},
		{URL: "/drafts/a/", File: "drafts/a/index.html", Class: indexability.Noindex, RobotsTxt: crawlable,
			Agents: []indexability.Agent{{Name: "robots", Directives: "noindex, follow", From: []indexability.From{
				{Directives: "noindex", Source: rule}, {Directives: "follow", Source: def}}}}},
	}
	var b bytes.Buffer
	w := indexability.NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			fmt.Println(err)
		}
	}
	w.Close()

	r := indexability.NewReader(&b, "site.jsonl")
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		if why := rec.Index(indexability.Googlebot); why != indexability.InIndex {
			fmt.Printf("%s: not in Google's index: %s (%s)\n", rec.URL, why, rec.SourceOf("googlebot", "noindex"))
			continue
		}
		fmt.Printf("%s: in Google's index\n", rec.URL)
	}
	// Output:
	// /: in Google's index
	// /drafts/a/: not in Google's index: noindex (rule 1 at robotsmith.yaml:12)
}
