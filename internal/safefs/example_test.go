package safefs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/robotsmith/robotsmith/internal/safefs"
)

func Example() {
	dir, _ := os.MkdirTemp("", "site")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>old</p>"), 0o644)

	ctx := context.Background()
	tx, err := safefs.Begin(ctx, dir) // locks dir; undoes what a killed run left
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tx.Abort() // does nothing once Commit has run

	root, _ := os.OpenRoot(dir)
	defer root.Close()
	f, fi, err := safefs.OpenIn(root, "index.html") // regular files only, no link followed
	if err != nil {
		fmt.Println(err)
		return
	}
	old, _ := safefs.ReadAll(f, fi, 1<<20)
	f.Close()

	// The new content goes to a temporary file beside the page.
	if err := tx.WriteFile("index.html", fi, append(old, "<p>new</p>"...)); err != nil {
		fmt.Println(err)
		return
	}
	if err := tx.WriteFile("_headers", nil, []byte("/files/*\n  X-Robots-Tag: noindex\n")); err != nil {
		fmt.Println(err)
		return
	}
	// Every file in place, or none.
	if err := tx.Commit(ctx); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	fmt.Println(string(b))
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// <p>old</p><p>new</p>
	// _headers
	// index.html
}
