package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostile are configurations built to make a parser use memory or time out
// of proportion to their size (SPEC §10). Each must be an error at file:line
// (or be read), quickly, with a short message.
func hostile() []struct {
	desc, file, src string
	want            string // in the error; "" means it is read without error
} {
	nest := func(open, close string, n int) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	for i, prev := 0, "a"; i < 9; i++ {
		name := string(rune('b' + i))
		bomb += fmt.Sprintf("%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	var manyKeys, manyTOML, manyJSON strings.Builder
	manyJSON.WriteString("{")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&manyKeys, "k%d: v\n", i)
		fmt.Fprintf(&manyTOML, "k%d = \"v\"\n", i)
		if i > 0 {
			manyJSON.WriteString(",")
		}
		fmt.Fprintf(&manyJSON, "\"k%d\": 1", i)
	}
	manyJSON.WriteString("}")
	long := strings.Repeat("x", 300000)
	return []struct{ desc, file, src, want string }{
		{"yaml alias bomb", "robotsmith.yaml", bomb, "robotsmith.yaml:4: YAML aliases expand"},
		{"yaml alias bomb under a known key", "robotsmith.yaml", strings.Replace(bomb, "j: &j", "error_pages: &j", 1), "YAML aliases expand"},
		{"yaml aliases used a few times", "robotsmith.yaml", "error_pages: &e [/404.html, /50x.html]\nrules:\n  - path: *e\n    robots: &r noindex\n  - path: /x/**\n    robots: *r\n", ""},
		{"yaml flow lists 10,000 deep", "robotsmith.yaml", "x: " + nest("[", "]", 10000), "robotsmith.yaml:1:"},
		{"yaml flow maps 5,000 deep", "robotsmith.yaml", "x: " + nest("{a: ", "}", 5000), "robotsmith.yaml:1:"},
		{"yaml 40 deep", "robotsmith.yaml", "x: " + nest("[", "]", 40), "robotsmith.yaml:1: nested more than 32 levels deep"},
		{"yaml 40,000 keys", "robotsmith.yaml", manyKeys.String(), "and 39980 more problems"},
		{"toml arrays 10,000 deep", "robotsmith.toml", "x = " + nest("[", "]", 10000), "robotsmith.toml:1: nested more than 32"},
		{"toml inline tables 10,000 deep", "robotsmith.toml", "x = " + strings.Repeat("{a=", 10000) + "1" + strings.Repeat("}", 10000), "robotsmith.toml:1: nested more than 32"},
		{"toml inline tables 10,000 deep, the last without a value", "robotsmith.toml", "x = " + nest("{a=", "}", 10000), "robotsmith.toml:1:30005: toml: unexpected character U+007D '}' at start of value"},
		{"toml inline tables 100,000 deep", "robotsmith.toml", "x = " + strings.Repeat("{a=", 100000) + "1" + strings.Repeat("}", 100000), "robotsmith.toml:1:30005: toml: arrays and inline tables are nested more than"},
		{"toml dotted key 10,000 long", "robotsmith.toml", "output = \"public\"\n" + strings.Repeat("a.", 10000) + "b = 1\n", "robotsmith.toml:2: nested more than 32"},
		{"toml table header 10,000 long", "robotsmith.toml", "[" + strings.Repeat("a.", 10000) + "b]\n", "robotsmith.toml:1: nested more than 32"},
		{"toml dotted keys in inline tables", "robotsmith.toml", "x = " + strings.Repeat("{a.b.c=", 20) + "1" + strings.Repeat("}", 20), "robotsmith.toml:1: nested more than 32"},
		{"toml 40,000 keys", "robotsmith.toml", manyTOML.String(), "and 39980 more problems"},
		{"toml long array is not deep", "robotsmith.toml", "error_pages = [" + strings.Repeat("\"/a.html\", ", 20000) + "\"/b.html\"]\n", ""},
		{"toml quoted dots are not depth", "robotsmith.toml", "[headers]\n\"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h\" = 1\n", "unknown key"},
		{"toml strings hide brackets", "robotsmith.toml", "command = \"" + strings.Repeat("[", 100) + "\"\ngenerator = '''\n" + strings.Repeat("{", 100) + "'''\n", "robotsmith.toml:2: generator: "},
		{"json arrays 10,000 deep", "robotsmith.json", `{"x": ` + nest("[", "]", 10000) + "}", "robotsmith.json:1: nested more than 32"},
		{"json 40,000 keys", "robotsmith.json", manyJSON.String(), "and 39980 more problems"},
		{"a 300 KB key", "robotsmith.yaml", long + ": 1\n", "robotsmith.yaml:1: yaml: mapping values are not allowed"},
		{"a 1000-byte key is quoted short", "robotsmith.yaml", strings.Repeat("k", 1000) + ": 1\n", "... (1000 bytes)"},
		{"a 300 KB value is quoted short", "robotsmith.yaml", "tags: " + long + "\n", "... (300000 bytes)"},
		{"a 1000-byte agent name", "robotsmith.yaml", "defaults:\n  " + strings.Repeat("a", 1000) + ": noindex\n", "robotsmith.yaml:2: \"aaaa"},
		{"a 300 KB toml key in a syntax error", "robotsmith.toml", long + " = \n", "robotsmith.toml:1:"},
		{"a 300 KB json key", "robotsmith.json", `{"` + long + `": 1}`, "unknown key"},
	}
}

func TestHostile(t *testing.T) {
	for _, tc := range hostile() {
		t.Run(tc.desc, func(t *testing.T) {
			start := time.Now()
			_, err := Parse(tc.file, []byte(tc.src))
			took := time.Since(start)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("got %.300v", err)
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("got %.500v, want an error with %q", err, tc.want)
				}
				// Twenty problems are listed, each of at most 250 bytes or so (an unknown key's
				// message lists every top-level key).
				if len(err.Error()) > 5000 {
					t.Errorf("got a message of %d bytes (%.200s...), want short excerpts", len(err.Error()), err)
				}
			}
			t.Logf("%d bytes in %v", len(tc.src), took)
		})
	}
}

func FuzzHostile(f *testing.F) {
	for _, tc := range hostile() {
		if len(tc.src) < 20000 {
			f.Add(tc.file, tc.src)
		}
	}
	f.Fuzz(func(t *testing.T, file, src string) {
		_, err := Parse(file, []byte(src))
		if err != nil && len(err.Error()) > 4000+maxErrors*300 {
			t.Fatalf("a message of %d bytes", len(err.Error()))
		}
	})
}

// TestJSONIsJSON: robotsmith.json is read as JSON: what YAML would also
// accept but JSON does not is an error at its line.
func TestJSONIsJSON(t *testing.T) {
	tests := []struct {
		desc, src, want string
	}{
		{"comment", "{\n  # a comment\n  \"tags\": \"three\"\n}\n", "robotsmith.json:2:3: json: invalid character '#'"},
		{"unquoted key", "{\n  tags: three\n}\n", "robotsmith.json:2:3: json:"},
		{"yaml", "tags: three\n", "robotsmith.json:1:2: json:"},
		{"trailing comma", "{\n  \"tags\": \"three\",\n}\n", "robotsmith.json:3:1: json:"},
		{"two documents", "{\"tags\": \"three\"}\n{}\n", "robotsmith.json:2:1: json: more after"},
		{"cut short", "{\n  \"tags\": \"three\"\n", "robotsmith.json:3:1: json: object not closed before the end of the file"},
		{"not a map", "[1, 2]\n", "robotsmith.json:1: the configuration must be a map"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Parse("robotsmith.json", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
	c, err := Parse("robotsmith.json", []byte("{\"tags\": \"single\", \"headers\": {\"html\": true}}"))
	if err != nil || !c.Headers.HTML {
		t.Fatalf("got %+v, %v", c, err)
	}
	c, err = Parse("robotsmith.json", []byte("  \n"))
	if err != nil || c.File != "robotsmith.json" {
		t.Fatalf("empty: got %+v, %v", c, err)
	}
}

// TestLoadTwo: two configuration files are an error naming both.
func TestLoadTwo(t *testing.T) {
	for _, pair := range [][2]string{{"robotsmith.yaml", "robotsmith.toml"}, {"robotsmith.yaml", "robotsmith.yml"}, {"robotsmith.toml", "robotsmith.json"}} {
		t.Run(pair[0]+"+"+pair[1], func(t *testing.T) {
			dir := t.TempDir()
			for _, n := range pair {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(""), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(dir, "")
			if !errors.Is(err, ErrTwo) || !strings.Contains(err.Error(), pair[0]) || !strings.Contains(err.Error(), pair[1]) {
				t.Fatalf("got %v, want ErrTwo naming %s and %s", err, pair[0], pair[1])
			}
			// Naming one with --config reads it.
			if _, err := Load(dir, filepath.Join(dir, pair[1])); err != nil {
				t.Fatalf("--config: %v", err)
			}
		})
	}
}

// TestLoadOdd: a configuration that is a FIFO, a device or too large is an
// error, found without blocking or reading it whole.
func TestLoadOdd(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxSize)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{fifo, "not a regular file (a FIFO)"},
		{zero, "not a regular file (a character device)"},
		{big, "big.yaml: more than 1024 KiB"},
		{dir, "not a regular file (a folder)"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := Load(dir, tc.file); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("got %v, want %q", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Load blocked")
			}
		})
	}
	// Found by name in the site too.
	sub := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(sub, "robotsmith.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(sub, ""); err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Fatalf("a FIFO named robotsmith.yaml: got %v", err)
	}
}
