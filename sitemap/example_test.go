package sitemap_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/robotsmith/robotsmith/sitemap"
)

const hugoSitemap = `<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
  xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url>
    <loc>https://example.org/posts/guide/</loc>
    <xhtml:link rel="alternate" hreflang="en" href="https://example.org/posts/guide/"/>
    <xhtml:link rel="alternate" hreflang="fr" href="https://example.org/fr/posts/guide/"/>
  </url><url>
    <loc>https://example.org/tags/</loc>
  </url>
</urlset>
`

func ExampleNewReader() {
	r := sitemap.NewReader(strings.NewReader(hugoSitemap))
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: line %d %s\n", r.Kind(), e.Line, e.Loc)
		for _, a := range e.Alternates {
			fmt.Printf("  line %d %s %s\n", a.Line, a.Hreflang, a.Href)
		}
	}
	// Output:
	// urlset: line 5 https://example.org/posts/guide/
	//   line 6 en https://example.org/posts/guide/
	//   line 7 fr https://example.org/fr/posts/guide/
	// urlset: line 9 https://example.org/tags/
}

func ExamplePrune() {
	// The tag list and the French guide are noindex: out of the sitemap they go, and so does
	// the alternate that points at the French guide.
	noindex := map[string]bool{"https://example.org/tags/": true, "https://example.org/fr/posts/guide/": true}
	p, err := sitemap.Prune(os.Stdout, strings.NewReader(hugoSitemap), func(ref sitemap.Ref) bool {
		return !noindex[ref.URL]
	})
	fmt.Printf("%+v %v\n", p, err)
	// Output:
	// <?xml version="1.0" encoding="utf-8" standalone="yes"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
	//   xmlns:xhtml="http://www.w3.org/1999/xhtml">
	//   <url>
	//     <loc>https://example.org/posts/guide/</loc>
	//     <xhtml:link rel="alternate" hreflang="en" href="https://example.org/posts/guide/"/>
	//   </url>
	// </urlset>
	// {Kind:urlset URLs:2 Removed:1 Alternates:2 AlternatesRemoved:1} <nil>
}
