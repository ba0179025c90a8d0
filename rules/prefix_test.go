package rules

import (
	"strings"
	"testing"
)

// TestAgentPrefixInValue: a crawler's name inside a value (`robots: "googlebot: noindex"`, the way
// X-Robots-Tag writes it) gives the directives after it to that crawler, with a warning, in front
// matter, in the config's rules and in a theme's tag. Read as one list, the name was an unknown
// directive, dropped with its restriction: googlebot stayed free to index the page.
func TestAgentPrefixInValue(t *testing.T) {
	fm := Source{Kind: FromFrontMatter, File: "content/a.md", Line: 3, Key: "robots"}
	theme := Source{Kind: FromPage, File: "public/a/index.html", Line: 4, Key: "robots"}
	tests := []struct {
		desc  string
		in    Input
		tags  []string // the page's tags, name=content
		warns []string // a word of each warning
		err   string
	}{
		{"a crawler alone", Input{Agent: "robots", Value: "googlebot: noindex", Source: fm},
			[]string{"robots=index, follow", "googlebot=noindex, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1", "bingbot=index, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1"},
			[]string{"names a crawler inside the value (googlebot)"}, ""},
		{"all crawlers, then one", Input{Agent: "robots", Value: "nofollow, googlebot: nosnippet, noarchive", Source: fm},
			[]string{"robots=index, nofollow", "googlebot=index, nofollow, noarchive, nosnippet, max-image-preview:large, max-video-preview:-1", "bingbot=index, nofollow, max-snippet:-1, max-image-preview:large, max-video-preview:-1"},
			[]string{"(googlebot)"}, ""},
		{"two crawlers, spaces between", Input{Agent: "robots", Value: "googlebot: noindex bingbot: noindex", Source: fm},
			[]string{"robots=index, follow", "googlebot=noindex, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1", "bingbot=noindex, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1"},
			[]string{"separate them with commas", "(googlebot, bingbot)"}, ""},
		{"a theme's tag", Input{Agent: "robots", Value: "googlebot: noindex", Source: theme},
			[]string{"robots=index, follow", "googlebot=noindex, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1", "bingbot=index, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1"},
			[]string{"(googlebot)"}, ""},
		{"a directive's own value is no crawler", Input{Agent: "robots", Value: "max-snippet: 50", Source: fm},
			[]string{"robots=index, follow, max-snippet:50", "googlebot=index, follow, max-snippet:50, max-image-preview:large, max-video-preview:-1", "bingbot=index, follow, max-snippet:50, max-image-preview:large, max-video-preview:-1"},
			nil, ""},
		{"a misspelt directive is no crawler", Input{Agent: "robots", Value: "max-snipet: 50", Source: fm},
			nil, nil, `did you mean "max-snippet"?`},
		{"a misspelt crawler fails closed", Input{Agent: "robots", Value: "googlebto: noindex", Source: fm},
			nil, []string{"(googlebto)"}, `did you mean "googlebot"?`},
	}
	r, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			d, warns, err := r.Decide(Item{Path: "/a/", Inputs: []Input{tc.in}})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got error %v, want one saying %q", err, tc.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tc.tags != nil {
				var got []string
				for _, tag := range d.Directives().Tags {
					got = append(got, tag.Name+"="+tag.Content)
				}
				if strings.Join(got, "\n") != strings.Join(tc.tags, "\n") {
					t.Errorf("tags:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.tags, "\n"))
				}
			}
			var all []string
			for _, w := range warns {
				all = append(all, w.String())
			}
			for _, w := range tc.warns {
				if !strings.Contains(strings.Join(all, "\n"), w) {
					t.Errorf("warnings %q lack %q", all, w)
				}
			}
			if len(tc.warns) == 0 && len(all) > 0 {
				t.Errorf("unexpected warnings %q", all)
			}
		})
	}
}
