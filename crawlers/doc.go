// Package crawlers is robotsmith's crawler catalogue: the robots.txt product
// tokens it knows, who runs each crawler, what each fetches for (training,
// ai-search, ai-input, search-engine, link-preview, other), and where each
// fact comes from. The catalogue ships in the binary (catalogue.yaml, read
// with go:embed) with a version and a date; the ai.robots.txt project's
// robots.json (MIT) is credited as a source wherever facts come from it.
//
// Two jobs use the one list:
//
//   - `ai.block` in robotsmith.yaml disallows every crawler of the categories
//     it names (Catalogue.Block). A category blocks only what it names:
//     search engines, link-preview fetchers and generic names are never
//     blocked by a category, only by naming them in robots_txt.groups.
//   - the typo check on agent names (Catalogue.Resembles): a name within two
//     edits of a well-known token but not equal to it is a misspelling.
//
// Usage:
//
//	cat := crawlers.Default()
//	for _, c := range cat.Block(crawlers.Training) {
//		fmt.Println(c.Name(), c.Operator) // GPTBot OpenAI, ClaudeBot Anthropic, ...
//	}
//	if c, ok := cat.Lookup("gptbot"); ok {
//		fmt.Println(c.Purposes) // [training]
//	}
//	if want, ok := cat.Resembles("GPTbto"); ok {
//		fmt.Printf("did you mean %q?\n", want) // "GPTBot"
//	}
//
// The package is pure: Parse reads bytes, nothing reads files.
package crawlers
