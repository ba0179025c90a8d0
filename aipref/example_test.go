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

func ExamplePolicy_Conflicts() {
	p := aipref.Policy{Train: aipref.No, Input: aipref.Yes, Block: []crawlers.Purpose{crawlers.Training},
		BlockLine: 5, InputLine: 3}
	for _, c := range p.Conflicts(crawlers.Default()) {
		fmt.Printf("robotsmith.yaml:%d: %s\n", c.Line, c)
	}
	// Output:
	// robotsmith.yaml:5: block: training disallows Google-Extended (Google), which the crawler catalogue also lists for ai-input, and input: yes (line 3) allows ai-input: the block withholds it from ai-input as well
}

func ExamplePolicy_Reservation() {
	p := aipref.Policy{Train: aipref.No, Search: aipref.Yes, Reserve: true, Placement: aipref.RobotsTxt}
	for _, l := range p.Reservation() {
		fmt.Println("# " + l)
	}
	fmt.Println("Content-Signal: " + p.ContentSignal())
	// Output:
	// # Reservation of rights: the use of this site's content for text and data mining is expressly
	// # reserved under Article 4(3) of Directive (EU) 2019/790 (on copyright and related rights in the
	// # Digital Single Market) for: training AI models. Machine-readable preferences: the Content-Signal
	// # and Content-Usage lines below.
	// Content-Signal: search=yes, ai-train=no
}
