package llmstxt_test

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/llmstxt"
)

func Example() {
	src := []byte(`# Example

> A site about examples.

## Docs

- [Guide](https://example.com/guide/): how to use it
- [Roadmap](https://example.com/private/roadmap/): not public
- [API](https://example.com/api/)

See also the [roadmap](https://example.com/private/roadmap/).
`)
	f, _ := llmstxt.Parse(src)
	for _, l := range f.Links {
		fmt.Printf("line %d, %s: %s %q\n", l.Line, l.Section, l.URL, l.Notes)
	}
	out, pruned, err := llmstxt.Prune(src, func(url string) (bool, string) {
		return strings.Contains(url, "/private/"), "noindex for all crawlers"
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pruned {
		fmt.Printf("line %d: %s (%s)\n", p.Line, p.Action, p.Reason)
	}
	fmt.Print(string(out))
	// Output:
	// line 7, Docs: https://example.com/guide/ "how to use it"
	// line 8, Docs: https://example.com/private/roadmap/ "not public"
	// line 9, Docs: https://example.com/api/ ""
	// line 11, Docs: https://example.com/private/roadmap/ ""
	// line 8: item removed (noindex for all crawlers)
	// line 11: unlinked (noindex for all crawlers)
	// # Example
	//
	// > A site about examples.
	//
	// ## Docs
	//
	// - [Guide](https://example.com/guide/): how to use it
	// - [API](https://example.com/api/)
	//
	// See also the roadmap.
}

func ExampleUpdate() {
	owner := []byte("# My site\n\n> Written by hand.\n\n## Elsewhere\n\n- [Repository](https://git.example.com/site)\n")
	out, err := llmstxt.Update(owner, llmstxt.Info{Title: "Ignored: the owner's H1 stands"}, []llmstxt.Page{
		{URL: "https://example.com/guide/", Markdown: "https://example.com/guide/index.md", Title: "Guide", Description: "How to use it.", Section: "Docs"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// # My site
	//
	// > Written by hand.
	//
	// ## Elsewhere
	//
	// - [Repository](https://git.example.com/site)
	//
	// <!-- robotsmith: begin -->
	// ## Docs
	//
	// - [Guide](https://example.com/guide/index.md): How to use it.
	// <!-- robotsmith: end -->
}
