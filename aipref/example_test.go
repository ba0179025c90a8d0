package aipref_test

import (
	"fmt"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/crawlers"
)

func Example() {
	p := aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.Yes, Meta: true}
	p.AddBlock(crawlers.Training)
	fmt.Println("Content-Signal:", p.ContentSignal())
	fmt.Println("Content-Usage:", p.ContentUsage())
	fmt.Println(aipref.HeaderName+":", p.ContentUsage(), "(HTTP header)")
	fmt.Println(p.MetaValues())
	blocked := p.Blocked(crawlers.Default())
	fmt.Println(blocked[0].Name(), blocked[1].Name())
	// Output:
	// Content-Signal: search=yes, ai-input=yes, ai-train=no
	// Content-Usage: train-ai=n, search=y
	// Content-Usage: train-ai=n, search=y (HTTP header)
	// [noai noimageai]
	// GPTBot ClaudeBot
}
