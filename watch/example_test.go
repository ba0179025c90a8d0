package watch_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/robotsmith/robotsmith/watch"
)

// The generator rewrites one page; robotsmith fixes it and records its write, and the watcher does
// not report that write back.
func Example() {
	site, err := os.MkdirTemp("", "watch-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(site)
	public := filepath.Join(site, "public")
	page := filepath.Join(public, "blog", "index.html")
	os.MkdirAll(filepath.Dir(page), 0o755)
	os.WriteFile(page, []byte("<head></head>"), 0o644)

	own := watch.NewOwn()
	w, err := watch.New(watch.Options{Roots: []string{public}, Own: own})
	if err != nil {
		log.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	os.WriteFile(page, []byte("<head><title>new</title></head>"), 0o644) // the generator
	b, err := w.Next(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range b.Changes {
		fmt.Println(c.Root, c.Rel, c.Op)
		fixed := []byte("<head><meta name=\"robots\" content=\"noindex\"><title>new</title></head>")
		os.WriteFile(c.Path, fixed, 0o644) // robotsmith (really: a temporary file renamed into place)
		own.Record(c.Path, own.Stamp(fixed))
	}

	os.WriteFile(filepath.Join(public, "sitemap.xml"), []byte("<urlset/>"), 0o644) // the generator again
	b, err = w.Next(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range b.Changes {
		fmt.Println(c.Root, c.Rel, c.Op)
	}
	// Output:
	// 0 blog/index.html write
	// 0 sitemap.xml create|write
}
