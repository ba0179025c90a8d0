package problem_test

import (
	"errors"
	"fmt"

	"github.com/robotsmith/robotsmith/problem"
)

// A robots key given twice: the problem names both places, and prints as robotsmith's text output
// has always printed it.
func Example() {
	p := problem.New(problem.RobotsKeyRepeated, problem.Position{File: "content/a.md", Line: 7},
		`front matter: noindex given again (first at line 3)`)
	p.Related = []problem.Related{{Position: problem.Position{File: "content/a.md", Line: 3}, Msg: "first given here"}}
	var err error = p
	fmt.Println(err)

	// Through wrapping and errors.Join, as a command gets it back.
	err = errors.Join(fmt.Errorf("reading the site: %w", err))
	code := problem.CodeOf(err)
	fmt.Println(code, code.Name(), code.Severity())
	info, _ := problem.Lookup(code)
	fmt.Println(info.Summary)
	// Output:
	// content/a.md:7: front matter: noindex given again (first at line 3)
	// RS0305 robots-key-repeated error
	// a robots key is given twice in one front matter
}
