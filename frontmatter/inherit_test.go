package frontmatter

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
)

// TestRobotsKeys: the robots keys a map writes, each as the inputs it gives name it, whatever its
// value (a key that gives no input replaces an inherited one all the same, SPEC §3.3), with its
// robots map and whether it says nothing.
func TestRobotsKeys(t *testing.T) {
	for _, tc := range []struct {
		desc    string
		dialect Dialect
		src     string
		want    []string // "key@line", with " in robots@line" and " empty"
	}{
		{desc: "a string", src: "---\ntitle: a\nrobots: noindex\n---\n", want: []string{"robots@3"}},
		{desc: "false gives no input and is a key", src: "---\nnoindex: false\nnofollow: true\n---\n",
			want: []string{"noindex@2", "nofollow@3"}},
		{desc: "each agent of a map", src: "---\nrobots:\n  googlebot: nosnippet\n  bingbot:\n---\n",
			want: []string{"robots.googlebot@3 in robots@2", "robots.bingbot@4 in robots@2 empty"}},
		{desc: "keys as written", src: "---\nRobots: INDEX\nNoIndex: false\n---\n", want: []string{"Robots@2", "NoIndex@3"}},
		{desc: "no value", src: "---\nrobots:\nunavailable_after: ''\n---\n", want: []string{"robots@2 empty", "unavailable_after@3 empty"}},
		{desc: "nothing but blanks", src: "---\nrobots: ['', ' ']\n---\n", want: []string{"robots@2 empty"}},
		{desc: "an empty map", src: "---\nrobots: {}\n---\n", want: []string{"robots@2 empty"}},
		{desc: "Hugo's params", src: "---\nrobots: index\nparams:\n  robots: noindex\n  expiryDate: 2020-01-01\n---\n",
			want: []string{"robots@2", "params.robots@4", "params.expiryDate@5"}},
		{desc: "Jekyll has no params nor expiry dates", dialect: Jekyll, src: "---\nexpiryDate: 2020-01-01\nparams:\n  robots: noindex\n---\n"},
		{desc: "a value of the wrong type is a key", src: "---\nrobots: 3\n---\n", want: []string{"robots@2"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Parse("p.md", []byte(tc.src), tc.dialect)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, k := range d.RobotsKeys(nil, d.Root, rules.FromFrontMatter) {
				if k.Source.Kind != rules.FromFrontMatter || k.Source.File != "p.md" {
					t.Errorf("%s: source %+v", k.Source.Key, k.Source)
				}
				s := fmt.Sprintf("%s@%d", k.Source.Key, k.Source.Line)
				if k.In != (rules.Source{}) {
					s += fmt.Sprintf(" in %s@%d", k.In.Key, k.In.Line)
				}
				if k.Empty {
					s += " empty"
				}
				got = append(got, s)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
