package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// TestHostFiles builds a site for each host headers.format names (SPEC §6: "headers: {format:
// ...} also takes vercel, firebase, apache, nginx, caddy"): the host's file carries the PDF's
// X-Robots-Tag, the user's own part of the file is kept, a second build changes nothing, and check
// reports a file edited since (drift) as one that build would change.
func TestHostFiles(t *testing.T) {
	const userVercel = "{\n  \"cleanUrls\": true,\n  \"headers\": [\n    {\"source\": \"/(.*)\", \"headers\": [{\"key\": \"X-Frame-Options\", \"value\": \"DENY\"}]}\n  ]\n}\n"
	const twoSites = "{\n  \"hosting\": [\n    {\"target\": \"app\", \"public\": \"app\"},\n    {\n      \"target\": \"blog\",\n      \"public\": \"public\"\n    }\n  ]\n}\n"
	const userFirebase = "{\n  // the site\n  \"hosting\": {\n    \"public\": \"public\",\n    \"headers\": []\n  }\n}\n"
	for _, tc := range []struct {
		desc    string
		format  string
		extra   string // more of headers' keys: ", nginx_include: ..."
		output  string // "" for the site's folder itself
		given   map[string]string
		file    string   // the host file, relative to the site's folder
		want    []string // in the written file
		keep    string   // a user's part of the file, kept byte for byte
		changed []string // Report.ChangedFiles of the first build, besides the pages
	}{
		{"nginx", "nginx", "", "", nil, "robotsmith.nginx.conf",
			[]string{`location = "/files/x.pdf" {`, `add_header X-Robots-Tag "noindex, follow" always;`, `location = "/robotsmith.nginx.conf" {`}, "",
			[]string{"robotsmith.nginx.conf"}},
		{"nginx, the site's own add_header lines", "nginx", ", nginx_include: /etc/nginx/site-headers.conf", "", nil, "robotsmith.nginx.conf",
			[]string{"    add_header X-Robots-Tag \"noindex, follow\" always;\n    include \"/etc/nginx/site-headers.conf\";\n}"}, "",
			[]string{"robotsmith.nginx.conf"}},
		{"caddy", "caddy", "", "", nil, "robotsmith.caddy",
			[]string{"path_regexp `^(?:/files/x\\.pdf)$`", `+X-Robots-Tag "noindex, follow"`, "respond @robotsmith_self 404"}, "",
			[]string{"robotsmith.caddy"}},
		{"apache", "apache", "", "", map[string]string{".htaccess": "Options -Indexes\n"}, ".htaccess",
			[]string{`'/files/x.pdf'`, `Header always set X-Robots-Tag "noindex, follow"`}, "Options -Indexes\n",
			[]string{".htaccess"}},
		{"vercel, output apart", "vercel", "", "public", map[string]string{"vercel.json": userVercel}, "vercel.json",
			[]string{`files/x\\.pdf`, `"value": "noindex, follow"`}, `{"source": "/(.*)", "headers": [{"key": "X-Frame-Options", "value": "DENY"}]}`,
			[]string{"../.robotsmith-vercel.json", "../vercel.json"}},
		{"vercel, output the site", "vercel", "", "", nil, "vercel.json",
			[]string{`files/x\\.pdf`}, "",
			[]string{".robotsmith-vercel.json", "vercel.json"}},
		{"firebase, one of two sites", "firebase", ", firebase_site: blog", "public", map[string]string{"firebase.json": twoSites}, "firebase.json",
			[]string{"\"public\": \"public\",\n      \"headers\": [\n        {\n          \"regex\""}, "{\"target\": \"app\", \"public\": \"app\"}",
			[]string{"../.robotsmith-firebase.json", "../firebase.json"}},
		{"firebase and nginx", "[firebase, nginx]", "", "public", map[string]string{"firebase.json": userFirebase}, "firebase.json",
			[]string{`"regex": "^(?:/files/x\\.pdf)$"`, `"value": "noindex, follow"`}, "{\n  // the site\n  \"hosting\": {\n    \"public\": \"public\",\n",
			[]string{"../.robotsmith-firebase.json", "../firebase.json", "robotsmith.nginx.conf"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, tc.output)
			cfg := "headers: {format: " + tc.format + tc.extra + "}\nrules:\n  - path: /**/*.pdf\n    robots: noindex, follow\n"
			if tc.output != "" {
				cfg += "output: " + tc.output + "\n"
			}
			writeTree(t, dir, map[string]string{"robotsmith.yaml": cfg})
			writeTree(t, out, map[string]string{"index.html": page, "files/x.pdf": "%PDF-1.4\n"})
			writeTree(t, dir, tc.given)
			rep, err := Run(context.Background(), Options{Root: dir, Write: true})
			if err != nil {
				t.Fatal(err)
			}
			got := slices.DeleteFunc(slices.Clone(rep.ChangedFiles), func(s string) bool { return s == "index.html" })
			if !slices.Equal(got, tc.changed) {
				t.Errorf("changed: got %q, want %q", got, tc.changed)
			}
			b, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s: got\n%s\nwant it to hold %q", tc.file, b, w)
				}
			}
			if !strings.Contains(string(b), tc.keep) {
				t.Errorf("%s: got\n%s\nwant the user's %q kept", tc.file, b, tc.keep)
			}
			before := readTree(t, dir)
			rep, err = Run(context.Background(), Options{Root: dir, Write: true})
			if err != nil || rep.Changed != 0 || !mapsEqual(readTree(t, dir), before) {
				t.Errorf("second build: changed %q, %v; want nothing", rep.ChangedFiles, err)
			}
			edited := strings.Replace(string(b), "noindex, follow", "noindex", 1)
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err = Run(context.Background(), Options{Root: dir})
			if err != nil || !slices.ContainsFunc(rep.ChangedFiles, func(s string) bool { return strings.HasSuffix(s, filepath.Base(tc.file)) }) {
				t.Errorf("check after an edit: would change %q, %v; want %s", rep.ChangedFiles, err, tc.file)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestHeaderNotSent: with headers.format none, or a site auto finds to be on GitHub Pages (a CNAME
// file and no other host's file), a file whose directives only a header can carry is a finding of
// code header-not-sent, and no host file is written; a site with a host's file is not GitHub
// Pages.
func TestHeaderNotSent(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		format string
		files  map[string]string // besides the site's pages
		want   int               // header-not-sent findings
		wrote  string            // a host file written, "" for none
	}{
		{"none", "none", nil, 1, ""},
		{"auto, CNAME in the site's folder", "auto", map[string]string{"CNAME": "example.com\n"}, 1, ""},
		{"auto, CNAME in the output", "auto", map[string]string{"public/CNAME": "example.com\n"}, 1, ""},
		{"auto, CNAME and netlify.toml", "auto", map[string]string{"CNAME": "example.com\n", "netlify.toml": ""}, 0, "public/_headers"},
		{"auto, vercel.json", "auto", map[string]string{"vercel.json": "{}\n"}, 0, "vercel.json"},
		{"auto, nothing", "auto", nil, 0, "public/_headers"},
		{"auto, wrangler.jsonc", "auto", map[string]string{"wrangler.jsonc": "{}\n"}, 0, "public/_headers"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{
				"robotsmith.yaml":   "output: public\nheaders: {format: " + tc.format + "}\nrules:\n  - path: /**/*.pdf\n    robots: noindex\n",
				"public/index.html": page, "public/files/x.pdf": "%PDF-1.4\n",
			})
			writeTree(t, dir, tc.files)
			rep, err := Run(context.Background(), Options{Root: dir, Write: true})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, f := range rep.Findings {
				if f.Code == problem.HeaderNotSent {
					n++
					if !strings.Contains(f.Error(), "/files/x.pdf is to be noindex") {
						t.Errorf("finding: %v", f.Error())
					}
				}
			}
			if n != tc.want {
				t.Errorf("header-not-sent findings: got %d, want %d (%v)", n, tc.want, rep.Findings)
			}
			for _, name := range []string{"public/_headers", "vercel.json", "public/robotsmith.nginx.conf"} {
				_, err := os.Stat(filepath.Join(dir, name))
				if exists := err == nil; exists != (name == tc.wrote) && !(name == "vercel.json" && tc.files["vercel.json"] != "") {
					t.Errorf("%s: exists %v", name, exists)
				}
			}
		})
	}
}

// TestHostFileErrors: a host file robotsmith cannot write into fails the build with its code,
// naming the file as it lies in the site's folder, and nothing is written.
func TestHostFileErrors(t *testing.T) {
	for _, tc := range []struct {
		desc, format string
		given        map[string]string
		code         problem.Code
		at           string // after the site's folder
	}{
		{"vercel.json not JSON", "vercel", map[string]string{"vercel.json": "{\n  \"headers\": [\n"}, problem.HostFileInvalid, "vercel.json:3:1: "},
		{"vercel.json with routes", "vercel", map[string]string{"vercel.json": "{\n  \"routes\": []\n}\n"}, problem.HostRoutesConflict, "vercel.json:2: "},
		{"no firebase.json", "firebase", nil, problem.HostFileMissing, "firebase.json: "},
		{"nginx include a pattern", "nginx, nginx_include: /etc/*.conf", nil, problem.IncludePathInvalid, "robotsmith.nginx.conf: "},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{
				"robotsmith.yaml":    "output: public\nheaders: {format: " + tc.format + "}\nrules:\n  - path: /**/*.pdf\n    robots: noindex\n",
				"public/index.html":  page,
				"public/files/x.pdf": "%PDF-1.4\n",
			})
			writeTree(t, dir, tc.given)
			before := readTree(t, dir)
			_, err := Run(context.Background(), Options{Root: dir, Write: true})
			if got := problem.CodeOf(err); got != tc.code {
				t.Errorf("code: got %v (%v), want %v", got, err, tc.code)
			}
			at := filepath.Join(dir, tc.at)
			if strings.HasPrefix(tc.at, "robotsmith.nginx.conf") {
				at = filepath.Join(dir, "public", tc.at)
			}
			if err == nil || !strings.HasPrefix(err.Error(), at) {
				t.Errorf("error: got %v, want it to begin %q", err, at)
			}
			if !mapsEqual(readTree(t, dir), before) {
				t.Error("a failed build wrote files")
			}
		})
	}
}
