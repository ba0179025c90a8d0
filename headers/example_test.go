package headers_test

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/rules"
)

func ExampleBlock() {
	files := []headers.File{
		{Path: "/files/report.pdf", Lines: []rules.HeaderLine{{Content: "noindex, nofollow"}, {Agent: "googlebot", Content: "nosnippet"}}},
		{Path: "/img/logo.png"}, // the default decision: no rule
		{Path: "/img/draft one.png", Lines: []rules.HeaderLine{{Content: "noindex"}}},
	}
	block, err := headers.Block(files, headers.Options{Format: headers.Netlify})
	if err != nil {
		fmt.Println(err)
		return
	}
	existing := []byte("/*\n  X-Frame-Options: DENY\n")
	out, err := headers.Merge(existing, block)
	if err != nil {
		fmt.Println(err) // a begin marker with no end marker
		return
	}
	fmt.Print(string(out))
	// Output:
	// /*
	//   X-Frame-Options: DENY
	//
	// # robotsmith: begin
	// # Written by robotsmith on every build; edit the rules in its config, not here.
	// /files/report.pdf
	//   X-Robots-Tag: noindex, nofollow
	//   X-Robots-Tag: googlebot: nosnippet
	// /img/draft%20one.png
	//   X-Robots-Tag: noindex
	// # robotsmith: end
}

func ExampleLint() {
	existing := []byte("/files/*\n  X-Robots-Tag: noarchive\n")
	files := []headers.File{{Path: "/files/report.pdf", Lines: []rules.HeaderLine{{Content: "noindex"}}}}
	for _, f := range headers.Lint(existing, files, headers.Cloudflare) {
		fmt.Println(f)
	}
	// Output:
	// _headers:2: /files/report.pdf: rule /files/* also sets X-Robots-Tag for a file robotsmith covers; cloudflare joins both values into one X-Robots-Tag
}

func ExampleNginx() {
	files := headers.List{
		{Path: "/files/my report.pdf", Lines: []rules.HeaderLine{{Content: "noindex"}, {Agent: "googlebot", Content: "nosnippet"}}},
		{Path: "/img/logo.png"}, // the default decision: no location
	}
	r, err := headers.Nginx(files, headers.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(string(r.Data), "\n") {
		if !strings.HasPrefix(line, "#") {
			fmt.Println(line)
		}
	}
	include, _ := headers.NginxInclude("/srv/www/public/robotsmith.nginx.conf")
	fmt.Println(include)
	// Output:
	// location = "/files/my report.pdf" {
	//     add_header X-Robots-Tag "noindex" always;
	//     add_header X-Robots-Tag "googlebot: nosnippet" always;
	// }
	//
	// include "/srv/www/public/robotsmith.nginx.conf";
}
