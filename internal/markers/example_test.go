package markers_test

import (
	"fmt"

	"github.com/robotsmith/robotsmith/internal/markers"
)

func ExampleMerge() {
	existing := []byte("User-agent: *\nDisallow: /private/\n")
	block := []byte(markers.Begin + "\nUser-agent: GPTBot\nDisallow: /\n" + markers.End + "\n")
	out, err := markers.Merge(existing, block)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	fmt.Println(markers.Find(out)[0].Line)
	// Output:
	// User-agent: *
	// Disallow: /private/
	//
	// # robotsmith: begin
	// User-agent: GPTBot
	// Disallow: /
	// # robotsmith: end
	// 4
}
