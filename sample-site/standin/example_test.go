package standin_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/robotsmith/robotsmith/sample-site/standin"
)

func ExampleGenerate() {
	dir, err := os.MkdirTemp("", "standin-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// A site with one section and an aliased page.
	files := map[string]string{
		"hugo.toml":              "baseURL = \"https://example.org/\"\ntitle = \"Example\"\n",
		"content/blog/Hi.md":     "---\ntitle: Hi\naliases: [/hello/]\n---\n\nHello.\n",
		"static/robots.txt":      "User-agent: *\nAllow: /\n",
		"content/blog/_index.md": "+++\ntitle = \"Blog\"\n+++\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			log.Fatal(err)
		}
	}

	if err := standin.Generate(dir); err != nil {
		log.Fatal(err)
	}
	_ = filepath.WalkDir(filepath.Join(dir, "public"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(filepath.Join(dir, "public"), p)
			fmt.Println(filepath.ToSlash(rel))
		}
		return nil
	})
	alias, _ := os.ReadFile(filepath.Join(dir, "public", "hello", "index.html"))
	fmt.Println(string(alias))
	// Output:
	// 404.html
	// blog/hi/index.html
	// blog/index.html
	// blog/page/1/index.html
	// categories/index.html
	// hello/index.html
	// index.html
	// page/1/index.html
	// robots.txt
	// sitemap.xml
	// tags/index.html
	// <!DOCTYPE html><html lang="en-us"><head><title>https://example.org/blog/hi/</title><link rel="canonical" href="https://example.org/blog/hi/"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=https://example.org/blog/hi/"></head></html>
}
