package plan_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/robotsmith/robotsmith/plan"
)

func Example() {
	dir, _ := os.MkdirTemp("", "robotsmith-plan-example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "tags"), 0o755)
	page := []byte("<!DOCTYPE html><html><head><title>Tags</title></head><body></body></html>")
	os.WriteFile(filepath.Join(dir, "tags", "index.html"), page, 0o644)
	os.WriteFile(filepath.Join(dir, "robotsmith.yaml"), []byte("rules:\n  - path: /tags/**\n    robots: noindex, follow\n"), 0o644)

	p, err := plan.Open(plan.Options{Root: dir})
	if err == nil {
		p, err = p.Read(context.Background())
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	files := []plan.Record{plan.NewRecord("/tags/index.html", false)}
	p.Locate(files)
	var a plan.Applier
	r := a.Apply(p, &files[0], page, files)
	fmt.Println(files[0].URL(), files[0].Verdict().Class, files[0].Changed())
	fmt.Println(string(r.Out))
	// Output:
	// /tags/ noindex true
	// <!DOCTYPE html><html><head><!-- robotsmith -->
	// <meta name="robots" content="noindex, follow">
	// <!-- /robotsmith --><title>Tags</title></head><body></body></html>
}
