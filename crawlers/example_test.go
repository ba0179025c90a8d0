package crawlers_test

import (
	"fmt"

	"github.com/robotsmith/robotsmith/crawlers"
)

func Example() {
	cat := crawlers.Default()
	gpt, _ := cat.Lookup("gptbot")
	fmt.Println(gpt.Name(), gpt.Operator, gpt.Purposes)
	apple, _ := cat.Lookup("Applebot")
	fmt.Println(apple.Name(), apple.Purposes, "blockable:", apple.Blockable())
	ext, _ := cat.Lookup("Applebot-Extended")
	fmt.Println(ext.Name(), "robots.txt only:", ext.RobotsTxtOnly, "blocked by training:", ext.BlockedBy(crawlers.Training))
	want, _ := cat.Resembles("googlebto")
	fmt.Printf("googlebto: did you mean %q?\n", want)
	// Output:
	// GPTBot OpenAI [training]
	// Applebot [search-engine] blockable: false
	// Applebot-Extended robots.txt only: true blocked by training: true
	// googlebto: did you mean "Googlebot"?
}
