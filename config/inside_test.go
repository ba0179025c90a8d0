package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckInside: an output or content in the configuration that leads outside the site's folder
// is an error naming the key and its line (SPEC §2), judged after every symbolic link on the way is
// followed; --output stands in for the configuration's output; a folder that does not exist yet is
// judged by where it would be.
func TestCheckInside(t *testing.T) {
	top := t.TempDir()
	site, other := filepath.Join(top, "site"), filepath.Join(top, "other")
	for _, d := range []string{filepath.Join(site, "public"), filepath.Join(other, "x", "y"), filepath.Join(top, "shared")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		filepath.Join(site, "out-link"):  "../other",                     // inside the site, pointing out
		filepath.Join(site, "in-link"):   "public",                       // pointing inside
		filepath.Join(site, "deep"):      filepath.Join(other, "x", "y"), // deep/.. is other/x, not the site
		filepath.Join(site, "loop"):      "loop",                         // never ends
		filepath.Join(top, "site-link"):  "site",                         // the site itself named by a link
		filepath.Join(site, "back-link"): filepath.Join(site, "public"),  // absolute, inside
		filepath.Join(site, "up"):        "..",                           // the folder above, through a link
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		desc       string
		root       string // the site as given; "" is site
		src        string // robotsmith.yaml
		outputFlag bool
		want       string // "" for no error; else in the error, after "robotsmith.yaml:"
	}{
		{"the default's folder", "", "output: public\n", false, ""},
		{"a folder not made yet", "", "output: build/site\n", false, ""},
		{"the site itself", "", "output: .\n", false, ""},
		{"a link to a folder inside", "", "output: in-link\n", false, ""},
		{"an absolute link inside", "", "output: back-link\n", false, ""},
		{"an absolute path inside", "", "output: " + filepath.Join(site, "public") + "\n", false, ""},
		{"a missing folder and back", "", "output: nothing/../public\n", false, ""},
		{"the folder above", "", "tags: three\noutput: ..\n", false, "2: output: \"..\" is " + top + ", which leads outside the site's folder " + site},
		{"two folders above", "", "output: ../..\n", false, "1: output: \"../..\" is " + filepath.Dir(top) + ", which leads outside"},
		{"a sibling site", "", "output: ../other\n", false, "1: output: \"../other\" is " + other + ", which leads outside"},
		{"out and in again elsewhere", "", "output: public/../../other\n", false, "1: output: \"public/../../other\" is " + other},
		{"an absolute path outside", "", "output: " + other + "\n", false, "1: output: \"" + other + "\" is " + other},
		// The output folder itself a link of the site's own that leads elsewhere is followed (SPEC §1),
		// as the owner made it; only the way to it is judged.
		{"the folder itself a link pointing out", "", "output: out-link\n", false, ""},
		{"a folder not made yet below a link pointing out", "", "output: out-link/public\n", false, "1: output: \"out-link/public\" is " + filepath.Join(other, "public")},
		{"up through a link", "", "output: up/other\n", false, "1: output: \"up/other\" is " + other},
		{"a link's .. after the link", "", "output: deep/../z\n", false, "1: output: \"deep/../z\" is " + filepath.Join(other, "x", "z")},
		{"a link on the way that never ends", "", "output: loop/public\n", false, "1: output: \"loop/public\": resolve"},
		{"content outside", "", "output: public\ncontent: ../other/content\n", false, "2: content: \"../other/content\" is " + filepath.Join(other, "content")},
		{"--output stands in for output", "", "output: ../other\n", true, ""},
		{"--output does not stand in for content", "", "output: ../other\ncontent: ../../c\n", true, "2: content: \"../../c\""},
		{"the site named by a link", filepath.Join(top, "site-link"), "output: public\n", false, ""},
		{"outside a site named by a link", filepath.Join(top, "site-link"), "output: ../other\n", false, "1: output: \"../other\" is " + other},
		{"the site given relatively", "rel", "output: ../other\n", false, "1: output: \"../other\" is " + other},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			root := tc.root
			switch root {
			case "":
				root = site
			case "rel": // relative to the working directory, as on the command line
				t.Chdir(top)
				root = "site"
			}
			c, err := Parse("robotsmith.yaml", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			err = c.CheckInside(root, tc.outputFlag)
			if tc.want == "" {
				if err != nil {
					t.Errorf("got %v, want no error", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "robotsmith.yaml:"+tc.want) {
				t.Fatalf("got %v, want %q", err, "robotsmith.yaml:"+tc.want)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("%T is not a *config.Error", err)
			}
			if tc.desc == "a link on the way that never ends" {
				if !errors.Is(err, syscall.ELOOP) {
					t.Errorf("got %v, want ELOOP", err)
				}
			} else if !errors.Is(err, ErrOutside) {
				t.Errorf("got %v, want ErrOutside", err)
			}
		})
	}

	// --config from another folder: its folders are the site's, wherever the file is.
	shared := filepath.Join(top, "shared", "robotsmith.yaml")
	for _, tc := range []struct{ src, want string }{
		{"output: public\n", ""},
		{"\noutput: ../other\n", shared + ":2: output: \"../other\" is " + other},
	} {
		if err := os.WriteFile(shared, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load(site, shared)
		if err != nil {
			t.Fatal(err)
		}
		err = c.CheckInside(site, false)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("--config %s: got %v, want %q", tc.src, err, tc.want)
		}
	}
}
