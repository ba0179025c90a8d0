package hosttest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

func TestEncodePath(t *testing.T) {
	tests := []struct {
		desc, in, want string
	}{
		{"plain", "/files/report.pdf", "/files/report.pdf"},
		{"folder URL", "/blog/a/", "/blog/a/"},
		{"space and parentheses", "/files/my report (v2).pdf", "/files/my%20report%20(v2).pdf"},
		{"kept as browsers send them", "/a/!$&'()*+,;=:@~-._", "/a/!$&'()*+,;=:@~-._"},
		{"query and fragment characters", "/a?b#c", "/a%3Fb%23c"},
		{"percent and backslash", "/100%\\x", "/100%25%5Cx"},
		{"quotes and angle brackets", "/\"<>`{}", "/%22%3C%3E%60%7B%7D"},
		{"non-ASCII as UTF-8 bytes", "/café", "/caf%C3%A9"},
		{"control characters", "/a\tb\x7f", "/a%09b%7F"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got := EncodePath(tc.in)
			if got != tc.want {
				t.Errorf("EncodePath(%q) = %q, want %q", tc.in, got, tc.want)
			}
			// What a server decodes must be the file's name again.
			u, err := url.Parse("http://h" + got)
			if err != nil {
				t.Fatalf("url.Parse(%q): %v", got, err)
			}
			if u.Path != tc.in {
				t.Errorf("decoded %q, want %q", u.Path, tc.in)
			}
		})
	}
}

func TestHostString(t *testing.T) {
	tests := []struct {
		h    Host
		want string
	}{
		{Wrangler, "wrangler"},
		{Netlify, "netlify"},
		{Host(7), "Host(7)"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.h.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestToolsDir(t *testing.T) {
	t.Setenv("ROBOTSMITH_TOOLS", "/opt/tools")
	if got := ToolsDir(); got != "/opt/tools" {
		t.Errorf("with $ROBOTSMITH_TOOLS: got %q, want /opt/tools", got)
	}
	t.Setenv("ROBOTSMITH_TOOLS", "")
	t.Setenv("HOME", "/home/someone")
	if got, want := ToolsDir(), filepath.Join("/home/someone", ".cache", "robotsmith", "tools"); got != want {
		t.Errorf("without: got %q, want %q", got, want)
	}
}

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "wrangler")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(testtool.RequireEnv, "")
	t.Setenv("ROBOTSMITH_TOOLS", dir)

	t.Run("executable named by the environment", func(t *testing.T) {
		t.Setenv("WRANGLER", exe)
		if got, want := Command(t, Wrangler), []string{exe}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("entry point in the tools cache runs with node", func(t *testing.T) {
		js := filepath.Join(dir, "npm", "netlify", "node_modules", "netlify-cli", "bin", "run.js")
		if err := os.MkdirAll(filepath.Dir(js), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(js, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("NETLIFY", "")
		got := Command(t, Netlify) // skips when node is missing
		if len(got) != 2 || filepath.Base(got[0]) != "node" || got[1] != js {
			t.Errorf("got %q, want [.../node %s]", got, js)
		}
	})
	t.Run("missing server skips", func(t *testing.T) {
		t.Setenv("WRANGLER", filepath.Join(dir, "nonexistent"))
		var ran bool
		inner := t.Run("inner", func(t *testing.T) {
			Command(t, Wrangler)
			ran = true
		})
		if !inner || ran {
			t.Errorf("Command with a missing server: subtest passed=%v, continued=%v; want a skip", inner, ran)
		}
	})
}

func TestRequireNetns(t *testing.T) {
	t.Setenv(NetnsEnv, "")
	var ran bool
	t.Run("outside", func(t *testing.T) {
		RequireNetns(t)
		ran = true
	})
	if ran {
		t.Errorf("RequireNetns did not skip outside the namespace")
	}
	t.Setenv(NetnsEnv, "1")
	if !InNetns() {
		t.Errorf("InNetns() = false with %s=1", NetnsEnv)
	}
}

func ExampleEncodePath() {
	fmt.Println(EncodePath("/files/my report (v2).pdf"))
	fmt.Println(EncodePath("/café/?#"))
	// Output:
	// /files/my%20report%20(v2).pdf
	// /caf%C3%A9/%3F%23
}

// TestGetRaw checks that GetRaw sends each form of a path exactly as written, where Get sends
// what a browser sends: a server test compares the answers to every form, so a form rewritten on
// the way would compare one request with itself.
func TestGetRaw(t *testing.T) {
	var got string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.RequestURI
		w.Header().Set("X-Robots-Tag", "noindex")
	}))
	defer ts.Close()
	s := &Server{Host: Nginx, Base: ts.URL}
	tests := []struct {
		desc, raw string
	}{
		{"as a browser sends it", "/files/r%C3%A9sum%C3%A9%20a.pdf"},
		{"lower-case hex digits", "/files/r%c3%a9sum%c3%a9%20a.pdf"},
		{"every byte outside the unreserved ones", "/files/a%2Bb%21%24.pdf"},
		{"a literal percent sign", "/files/100%2525.pdf"},
		{"an encoded question mark", "/files/q%3fx.pdf"},
		{"bytes a client may send bare, which the url package would encode", "/files/a|b^c.pdf"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			resp, err := s.GetRaw(tc.raw, "")
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.raw {
				t.Errorf("GetRaw(%q) sent %q, want it as written", tc.raw, got)
			}
			if resp.Status != 200 || resp.XRobotsTag() != "noindex" {
				t.Errorf("GetRaw(%q): status %d, X-Robots-Tag %q; want 200, %q", tc.raw, resp.Status, resp.XRobotsTag(), "noindex")
			}
		})
	}
}
