package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/robotsblock"
)

// robotsSite is a Hugo-layout site (baseURL https://example.org/) with a public page, a page
// noindex by a rule (/internal/memo/), a page noindex for googlebot alone (/blog/quiet/), a PDF,
// an error page and a sitemap, and the given robotsmith.yaml and public/robots.txt ("" for none).
func robotsSite(t *testing.T, cfg, robots string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"hugo.toml":                       "baseURL = \"https://example.org/\"\n",
		"content/_index.md":               "---\ntitle: home\n---\n",
		"content/blog/a.md":               "---\ntitle: A\n---\n",
		"content/blog/quiet.md":           "---\ntitle: Q\nrobots:\n  googlebot: noindex\n---\n",
		"content/internal/memo.md":        "---\ntitle: M\n---\n",
		"public/index.html":               page,
		"public/blog/a/index.html":        page,
		"public/blog/quiet/index.html":    page,
		"public/internal/memo/index.html": page,
		"public/404.html":                 page,
		"public/files/x.pdf":              "%PDF-1.4\n",
		"public/sitemap.xml":              "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"></urlset>\n",
		"robotsmith.yaml":                 "rules:\n  - path: /internal/**\n    robots: noindex\n" + cfg,
	}
	if robots != "" {
		files["public/robots.txt"] = robots
	}
	writeTree(t, dir, files)
	return dir
}

// The parts of the config the tests combine.
const (
	starGroup = "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/search/]\n  sitemaps: true\n"
	aiPolicy  = "ai:\n  train: no\n  search: yes\n  input: yes\n  block: [training]\n"
)

// render is the block robotsblock renders for in: what build must write between the markers.
func render(t *testing.T, in robotsblock.Input) string {
	t.Helper()
	b, err := robotsblock.Render(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(b.Text)
}

// TestRobotsTxtBuild: build writes robotsmith's block of robots.txt at the output root (created
// when missing; replaced, with every byte outside it kept; removed when the config asks for
// nothing), with a Sitemap: line from Hugo's baseURL; check reports the file build would change; a
// second build changes nothing.
func TestRobotsTxtBuild(t *testing.T) {
	groups := []robotsblock.Group{{Agents: []string{"*"}, Disallow: []string{"/search/"}}}
	policy := aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.Yes}
	full := render(t, robotsblock.Input{Groups: groups, AI: policy, Sitemaps: []string{"/sitemap.xml"}, BaseURL: "https://example.org/"})
	user := "# the theme's robots.txt\r\nUser-agent: *\r\nAllow: /\r\n"
	tests := []struct {
		desc, cfg, robots string
		want              string // robots.txt after build; "" for no file
	}{
		{"created", starGroup + "ai:\n  train: no\n  search: yes\n  input: yes\n", "", full},
		{"appended to the theme's lines", starGroup + "ai:\n  train: no\n  search: yes\n  input: yes\n", user, user + "\n" + full},
		{"replaced, the lines around it kept", starGroup + "ai:\n  train: no\n  search: yes\n  input: yes\n",
			user + "\n" + markers.Begin + "\nUser-agent: old\nDisallow: /old/\n" + markers.End + "\nSitemap: https://cdn.example.org/other.xml\n",
			user + "\n" + full + "Sitemap: https://cdn.example.org/other.xml\n"},
		{"a Sitemap: line the theme has is not written again", starGroup,
			"User-agent: *\nAllow: /\nSitemap: https://example.org/sitemap.xml\n",
			"User-agent: *\nAllow: /\nSitemap: https://example.org/sitemap.xml\n\n" + render(t, robotsblock.Input{Groups: groups})},
		{"removed when nothing is asked", "",
			user + "\n" + markers.Begin + "\nUser-agent: old\nDisallow: /old/\n" + markers.End,
			user + "\n"},
		{"no file is created for nothing", "", "", ""},
		{"no file is created for ai.meta alone", "ai:\n  meta: true\n", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := robotsSite(t, tc.cfg, tc.robots)
			name := filepath.Join(dir, "public", "robots.txt")
			wantChange := tc.want != tc.robots
			rep, err := Run(context.Background(), Options{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(rep.ChangedFiles, "robots.txt"); got != wantChange {
				t.Errorf("check: robots.txt among the files build would change: %v, want %v (%q)", got, wantChange, rep.ChangedFiles)
			}
			if got := readTree(t, dir)["public/robots.txt"]; got != tc.robots {
				t.Fatalf("check wrote robots.txt:\n%s", got)
			}
			if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(name)
			switch {
			case tc.want == "" && !os.IsNotExist(err):
				t.Errorf("robots.txt was created: %q, %v", got, err)
			case tc.want != "" && string(got) != tc.want:
				t.Errorf("robots.txt:\n%s\nwant:\n%s", got, tc.want)
			}
			rep, err = Run(context.Background(), Options{Root: dir, Write: true})
			if err != nil || rep.Changed != 0 {
				t.Errorf("second build: %v, changed %q; want nothing changed", err, rep.ChangedFiles)
			}
		})
	}
}

// TestRobotsTxtKeepsMode: robots.txt is replaced with its mode kept.
func TestRobotsTxtKeepsMode(t *testing.T) {
	dir := robotsSite(t, starGroup, "User-agent: *\nAllow: /\n")
	name := filepath.Join(dir, "public", "robots.txt")
	if err := os.Chmod(name, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v; want 0640 kept", fi.Mode(), err)
	}
}

// TestRobotsTxtErrors: what build refuses, with nothing written: a block whose end marker is
// missing (where it ends cannot be told from the user's lines), sitemaps without a base URL, and
// a block for a robots.txt that is a symbolic link out of the output (a link to a file of the output
// is kept a link and the file it leads to gets the block: TestRobotsTxtLink).
func TestRobotsTxtErrors(t *testing.T) {
	tests := []struct {
		desc, cfg, robots string
		prepare           func(t *testing.T, dir string)
		want              string
	}{
		{"no end marker", starGroup, "User-agent: *\n" + markers.Begin + "\nDisallow: /x/\n# the user's own line\n", nil,
			`public/robots.txt:2: "# robotsmith: begin" has no "# robotsmith: end" after it`},
		{"sitemaps without a base URL", starGroup, "", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte("title = \"x\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "robotsmith.yaml:8: robots_txt: sitemaps: sitemaps need the site's absolute base URL"},
		{"a link out of the output", starGroup, "", func(t *testing.T, dir string) {
			writeTree(t, dir, map[string]string{"theme-robots.txt": "User-agent: *\nAllow: /\n"})
			if err := os.Symlink("../theme-robots.txt", filepath.Join(dir, "public", "robots.txt")); err != nil {
				t.Fatal(err)
			}
		}, "public/robots.txt: a symbolic link that leads outside the output"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := robotsSite(t, tc.cfg, tc.robots)
			if tc.prepare != nil {
				tc.prepare(t, dir)
			}
			before := readTree(t, dir)
			_, err := Run(context.Background(), Options{Root: dir, Write: true})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("build: error %v, want one containing %q", err, tc.want)
			}
			if got := readTree(t, dir); !reflect.DeepEqual(got, before) {
				t.Errorf("a failed build changed files")
			}
		})
	}
}

// TestRobotsTxtLink: a robots.txt that is a link to another file of the output stays a link, and
// the file it leads to gets robotsmith's block, as _headers does.
func TestRobotsTxtLink(t *testing.T) {
	dir := robotsSite(t, starGroup, "")
	const theme = "User-agent: *\nAllow: /\n"
	writeTree(t, dir, map[string]string{"public/theme-robots.txt": theme})
	link := filepath.Join(dir, "public", "robots.txt")
	if err := os.Remove(link); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink("theme-robots.txt", link); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(link); err != nil || target != "theme-robots.txt" {
		t.Fatalf("robots.txt: got link %q, %v; want it kept a link to theme-robots.txt", target, err)
	}
	got := readTree(t, dir)["public/theme-robots.txt"]
	if !strings.HasPrefix(got, theme) || !strings.Contains(got, markers.Begin) {
		t.Errorf("the link's target: got %q, want the theme's lines and robotsmith's block", got)
	}
}

// TestRobotsTxtNotAFile: robots.txt that is a FIFO is left alone with a warning; when robots_txt
// asks for robotsmith's block there, that is an error of its own code at the file, and nothing is
// written.
func TestRobotsTxtNotAFile(t *testing.T) {
	for _, tc := range []struct {
		desc, cfg string
		code      problem.Code // the error's; 0 for none
	}{
		{"no block asked for", "", 0},
		{"a block asked for", starGroup, problem.RobotsTxtUnwritable},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := robotsSite(t, tc.cfg, "")
			if err := syscall.Mkfifo(filepath.Join(dir, "public", "robots.txt"), 0o644); err != nil {
				t.Skip(err)
			}
			rep, err := Run(context.Background(), Options{Root: dir, Write: true})
			if tc.code == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if !hasWarning(rep.Warnings, "robots.txt: a FIFO: skipped, never read; left alone and not read", "[RS0902 not-a-regular-file]") {
					t.Errorf("warnings %q, want robots.txt's", texts(rep.Warnings))
				}
				return
			}
			ps := Problems(err)
			if len(ps) != 1 || ps[0].Code != tc.code || !strings.HasSuffix(ps[0].File, "robots.txt") ||
				!strings.HasPrefix(ps[0].Msg, "a FIFO: skipped, never read, so robotsmith cannot write its block (robots_txt and ai in ") {
				t.Errorf("build: %v; want one %s at robots.txt", texts(ps), tc.code)
			}
		})
	}
}

// TestRobotsTxtRefusal: a Disallow robotsmith would write over a page that is noindex for a
// crawler it keeps out is refused, naming the rule (robots_txt.groups[N] at the config's file:line)
// and the page; ai.block groups and crawlers the catalogue lists as no search engine are exempt.
func TestRobotsTxtRefusal(t *testing.T) {
	tests := []struct {
		desc, cfg, robots string
		want              string // "" for no error
	}{
		{"* over a noindex page", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/internal/]\n", "",
			`robotsmith.yaml:6: robots_txt.groups[1]: Disallow: /internal/ for * would hide the noindex of /internal/memo/ (` /* dir */},
		{"Googlebot over a page noindex for googlebot", "robots_txt:\n  groups:\n    - agents: [Googlebot]\n      disallow: [/blog/]\n", "",
			"robots_txt.groups[1]: Disallow: /blog/ for Googlebot would hide the noindex of /blog/quiet/"},
		{"* over a page noindex for googlebot, which obeys *", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/blog/q]\n", "",
			"robots_txt.groups[1]: Disallow: /blog/q for * would hide the noindex of /blog/quiet/"},
		{"* over a page noindex for googlebot, which has a group of its own", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/blog/q]\n",
			"User-agent: Googlebot\nDisallow: /nothing-here/\n", ""},
		{"every page and file counted", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/]\n", "",
			"/public/blog/quiet/index.html, and 1 more): "},
		{"a crawler robotsmith does not know", "robots_txt:\n  groups:\n    - agents: [mybot]\n      disallow: [/internal/]\n", "",
			"Disallow: /internal/ for mybot would hide the noindex of /internal/memo/"},
		{"a longer Allow of the user's lets it in", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/internal/]\n",
			"User-agent: *\nAllow: /internal/memo/\n", ""},
		{"GPTBot is no search engine", "robots_txt:\n  groups:\n    - agents: [GPTBot, CCBot]\n      disallow: [/]\n", "", ""},
		{"ai.block is exempt", "ai:\n  block: [all-ai]\n", "", ""},
		{"a Disallow over no noindex page", starGroup, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := robotsSite(t, tc.cfg, tc.robots)
			before := readTree(t, dir)
			_, err := Run(context.Background(), Options{Root: dir, Write: true})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("build: %v, want no error", err)
			case tc.want == "":
				return
			case err == nil || !strings.Contains(err.Error(), tc.want):
				t.Fatalf("build: error %v, want one containing %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), `("Indexed, though blocked by robots.txt")`) {
				t.Errorf("the error does not say why: %v", err)
			}
			// One problem, at the config's line, the noindex page its other side.
			if ps := Problems(err); len(ps) != 1 || ps[0].Code != problem.DisallowHidesNoindex || ps[0].Line == 0 ||
				len(ps[0].Related) != 1 || !strings.Contains(ps[0].Related[0].Msg, " is noindex (") {
				t.Errorf("problems %+v, want one %s naming the noindex page", ps, problem.DisallowHidesNoindex)
			}
			if got := readTree(t, dir); !reflect.DeepEqual(got, before) {
				t.Errorf("a refused build changed files")
			}
			if _, err := Run(context.Background(), Options{Root: dir}); err == nil {
				t.Errorf("check: no error, want the same refusal")
			}
		})
	}
}

// TestRobotsTxtOverruled: a rule of robotsmith's block that the rest of robots.txt cancels, once a
// crawler merges the groups that name it (RFC 9309), is an error finding naming both lines; tokens
// are compared as Google's parser reads them, so no finding is made up.
func TestRobotsTxtOverruled(t *testing.T) {
	tests := []struct {
		desc, cfg, robots string
		want              []string // one finding, containing each of these; nil for none
	}{
		{"a theme's Allow: / for GPTBot", aiPolicy, "User-agent: GPTBot\nAllow: /\n",
			[]string{"/public/robots.txt:18: Disallow: / for GPTBot (robotsmith's block, from ai.block at ", "/robotsmith.yaml:8) is cancelled by line 2, Allow: /: a crawler merges every group that names GPTBot, and an Allow at least as long as a Disallow wins"}},
		{"a theme's Allow for * cancels the block's Disallow for *", starGroup, "User-agent: *\nAllow: /search/\n",
			[]string{"/public/robots.txt:8: Disallow: /search/ for * (robotsmith's block, from robots_txt.groups[1] at ", "/robotsmith.yaml:6) is cancelled by line 2, Allow: /search/: a crawler merges every group for *"}},
		{"User-agent: AI is the AI2Bot group to Google", aiPolicy, "User-agent: AI\nAllow: /\n",
			[]string{"Disallow: / for AI2Bot (robotsmith's block, from ai.block at ", "/robotsmith.yaml:8) is cancelled by line 2, Allow: /: a crawler merges every group that names AI (Google's parser reads User-agent: AI2Bot as AI)"}},
		{"no false cancellation", aiPolicy + starGroup,
			"User-agent: *\nAllow: /\n\nUser-agent: AIBot\nAllow: /\n\nUser-agent: GPTBot-Reader\nAllow: /\n\nUser-agent: img-fetcher\nAllow: /\n", nil},
		{"a theme's Disallow for GPTBot agrees", aiPolicy, "User-agent: GPTBot\nDisallow: /private/\n", nil},
		{"a theme's longer Allow is no cancellation", starGroup, "User-agent: *\nAllow: /search/help/\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := robotsSite(t, tc.cfg, tc.robots)
			rep, err := Run(context.Background(), Options{Root: dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range texts(rep.Findings) {
				if strings.Contains(f, "robots.txt") {
					got = append(got, f)
				}
			}
			if len(got) != min(len(tc.want), 1) {
				t.Fatalf("findings %q, want %d", got, min(len(tc.want), 1))
			}
			for _, w := range tc.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("finding %q, want it to contain %q", got[0], w)
				}
			}
		})
	}
}

// TestContentUsageHeader: with an ai policy that has a Content-Usage value, _headers sends it for
// every path with one /* rule in both dialects, and a user rule that sets it too is a finding.
func TestContentUsageHeader(t *testing.T) {
	user := "/*\n  X-Frame-Options: DENY\n/blog/*\n  Content-Usage: train-ai=y\n"
	tests := []struct {
		desc, cfg string
		want      []string // in _headers
		finding   string
	}{
		{"netlify", aiPolicy, []string{"# robotsmith: begin\n# Written by robotsmith on every build; edit the rules in its config, not here.\n/*\n  Content-Usage: train-ai=n, search=y\n# robotsmith: end\n"},
			"_headers:4: rule /blog/* also sets Content-Usage, which robotsmith sends for every path from the ai policy in its config; robotsmith's block comes later, so netlify drops this rule's value"},
		{"cloudflare", aiPolicy + "headers:\n  format: cloudflare\n", []string{"/*\n  X-Frame-Options: DENY\n  Content-Usage: train-ai=n, search=y\n"},
			"_headers:4: rule /blog/* also sets Content-Usage, which robotsmith sends for every path from the ai policy in its config; cloudflare joins both values into one Content-Usage"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := robotsSite(t, tc.cfg, "")
			writeTree(t, dir, map[string]string{"public/_headers": user})
			rep, err := Run(context.Background(), Options{Root: dir, Write: true})
			if err != nil {
				t.Fatal(err)
			}
			got := readTree(t, dir)["public/_headers"]
			if !strings.HasPrefix(got, user) {
				t.Errorf("the user's rules were not kept:\n%s", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("_headers lacks %q:\n%s", w, got)
				}
			}
			if n := strings.Count(got, "Content-Usage: train-ai=n, search=y"); n != 1 {
				t.Errorf("_headers sends robotsmith's Content-Usage in %d rules, want 1", n)
			}
			if !slices.ContainsFunc(texts(rep.Findings), func(f string) bool { return strings.HasSuffix(f, tc.finding) }) {
				t.Errorf("findings %q, want one ending %q", rep.Findings, tc.finding)
			}
		})
	}
	// A policy of input alone has no Content-Usage label: no header, no rule for it.
	dir := robotsSite(t, "ai:\n  input: no\n", "")
	if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir)["public/_headers"]; strings.Contains(got, "Content-Usage") {
		t.Errorf("input alone sent Content-Usage:\n%s", got)
	}
}

// TestAIPlacement: ai.placement decides which signals carry the preferences through a real build:
// headers sends Content-Usage in _headers and writes no preference line in robots.txt (the
// Disallow groups of ai.block stay), robots.txt the reverse, both each; ai.reserve puts the
// reservation above the Content-Signal line; and block: [training] with input: yes is a warning at
// the block's config line naming Google-Extended.
func TestAIPlacement(t *testing.T) {
	tests := []struct {
		desc, placement string
		robots, header  bool
	}{
		{"both", "both", true, true},
		{"robots.txt", "robots.txt", true, false},
		{"headers", "headers", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			// nginx beside _headers: every host's file follows the placement alike.
			dir := robotsSite(t, aiPolicy+"  placement: "+tc.placement+"\n  reserve: true\nheaders:\n  format: [netlify, nginx]\n", "")
			var record strings.Builder
			rep, err := Run(context.Background(), Options{Root: dir, Write: true, Record: &record})
			if err != nil {
				t.Fatal(err)
			}
			tree := readTree(t, dir)
			robots, hdrs := tree["public/robots.txt"], tree["public/_headers"]
			// The indexability record says of each URL what a host sends, as _headers does.
			if got := strings.Contains(record.String(), `"header":{"value":"train-ai=n, search=y"`); got != tc.header {
				t.Errorf("the record has the Content-Usage header: got %v, want %v:\n%s", got, tc.header, record.String())
			}
			for _, line := range []string{"\nContent-Signal: search=yes, ai-input=yes, ai-train=no\n", "\nContent-Usage: train-ai=n, search=y\n"} {
				if got := strings.Contains(robots, line); got != tc.robots {
					t.Errorf("robots.txt has %q: got %v, want %v:\n%s", strings.TrimSpace(line), got, tc.robots, robots)
				}
			}
			if got := strings.Contains(hdrs, "Content-Usage: train-ai=n, search=y"); got != tc.header {
				t.Errorf("_headers sends Content-Usage: got %v, want %v:\n%s", got, tc.header, hdrs)
			}
			if nginx := tree["public/robotsmith.nginx.conf"]; strings.Contains(nginx, "Content-Usage") != tc.header {
				t.Errorf("robotsmith.nginx.conf sends Content-Usage: got %v, want %v:\n%s", !tc.header, tc.header, nginx)
			}
			if !strings.Contains(robots, "User-agent: GPTBot\nDisallow: /\n") {
				t.Errorf("robots.txt lacks ai.block's groups:\n%s", robots)
			}
			res := strings.Index(robots, "# Reservation of rights: ")
			if res < 0 || tc.robots && res > strings.Index(robots, "Content-Signal: ") {
				t.Errorf("the reservation is missing, or not above Content-Signal:\n%s", robots)
			}
			want := "robotsmith.yaml:8: block: training disallows Google-Extended (Google), which the crawler catalogue also lists for ai-input, and input: yes (line 7)"
			if !slices.ContainsFunc(texts(rep.Warnings), func(w string) bool { return strings.Contains(w, want) }) {
				t.Errorf("warnings %q, want one containing %q", texts(rep.Warnings), want)
			}
		})
	}
}

// TestAIMeta: ai.meta adds noai, noimageai to every HTML page (not to error pages, whose tags are
// removed, nor to files), and explain names the config line it comes from.
func TestAIMeta(t *testing.T) {
	dir := robotsSite(t, "ai:\n  train: no\n  meta: true\n", "")
	writeTree(t, dir, map[string]string{
		"public/old/index.html": "<!DOCTYPE html><html><head><meta http-equiv=\"refresh\" content=\"0; url=/blog/a/\"><title>r</title></head><body></body></html>\n",
	})
	if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, dir)
	for file, want := range map[string]string{
		"public/blog/a/index.html":        `<meta name="robots" content="index, follow, noai, noimageai">`,
		"public/internal/memo/index.html": `<meta name="robots" content="noindex, follow, noai, noimageai">`,
	} {
		if !strings.Contains(got[file], want) {
			t.Errorf("%s lacks %q:\n%s", file, want, got[file])
		}
	}
	for _, file := range []string{"public/404.html", "public/old/index.html", "public/_headers"} {
		if strings.Contains(got[file], "noai") {
			t.Errorf("%s has noai:\n%s", file, got[file])
		}
	}
	es, err := Explain(context.Background(), Options{Root: dir}, []string{"/blog/a/"})
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, v := range es[0].Agents[0].Values {
		if v.Token == "noai" {
			src = v.Source
		}
	}
	if want := "ai.meta at " + filepath.Join(dir, "robotsmith.yaml") + ":6"; src != want {
		t.Errorf("explain: noai from %q, want %q", src, want)
	}
}

// TestExplainCrawlers: explain --agent gives the catalogue's facts, what robots.txt lets the
// crawler fetch and which line decided, and the Content-Usage that applies to it there: from its
// own group if it has one, else from the "*" groups, the longest path first, and only where it may
// fetch the path.
func TestExplainCrawlers(t *testing.T) {
	robots := "User-agent: Googlebot\nAllow: /\nContent-Usage: search=y\nContent-Usage: /blog/ train-ai=y, search=y\n" +
		"Content-Usage: /blog/ train-ai=n\n"
	dir := robotsSite(t, aiPolicy+starGroup, robots)
	es, err := Explain(context.Background(), Options{Root: dir, Agents: []string{"GPTBot", "Googlebot", "AI2Bot", "mybot"}}, []string{"/blog/a/", "/files/x.pdf"})
	if err != nil {
		t.Fatal(err)
	}
	blog, pdf := es[0], es[1]
	if blog.ContentUsage != "train-ai=n, search=y" || pdf.ContentUsage != blog.ContentUsage {
		t.Errorf("content_usage_header %q and %q, want the policy's on both", blog.ContentUsage, pdf.ContentUsage)
	}
	byAgent := map[string]Crawler{}
	for _, c := range blog.Crawlers {
		byAgent[c.Agent] = c
	}
	gpt, google, ai2, my := byAgent["GPTBot"], byAgent["Googlebot"], byAgent["AI2Bot"], byAgent["mybot"]
	robotsTxt := filepath.ToSlash(filepath.Join(dir, "public", "robots.txt"))
	if gpt.Operator != "OpenAI" || !slices.Equal(gpt.Purposes, []string{"training"}) || len(gpt.Sources) == 0 || !gpt.OwnGroup {
		t.Errorf("GPTBot: %+v", gpt)
	}
	if gpt.Allowed || !strings.HasPrefix(gpt.Rule, robotsTxt+":") || !strings.HasSuffix(gpt.Rule, ": Disallow: /") || gpt.ContentUsage != "" {
		t.Errorf("GPTBot: allowed %v by %q, usage %q; want disallowed by the block's Disallow: / and no usage", gpt.Allowed, gpt.Rule, gpt.ContentUsage)
	}
	// Googlebot has its own group: the two /blog/ lines, longest, combined (n wins).
	if !google.Allowed || google.Rule != robotsTxt+":2: Allow: /" || google.ContentUsage != "train-ai=n, search=y" || google.ContentUsageFrom != robotsTxt+":4, 5" {
		t.Errorf("Googlebot: %+v", google)
	}
	if ai2.Token != "AI" || ai2.Allowed {
		t.Errorf("AI2Bot: token %q, allowed %v; want AI, disallowed", ai2.Token, ai2.Allowed)
	}
	if my.Operator != "" || !my.Allowed || my.OwnGroup || my.ContentUsage != "train-ai=n, search=y" || my.ContentSignal != "search=yes, ai-input=yes, ai-train=no" {
		t.Errorf("mybot: %+v; want the * group's preferences", my)
	}
	// Outside /blog/, Googlebot's path-less line applies.
	for _, c := range pdf.Crawlers {
		if c.Agent == "Googlebot" && c.ContentUsage != "search=y" {
			t.Errorf("Googlebot at /files/x.pdf: usage %q, want search=y", c.ContentUsage)
		}
	}
	text := blog.Text()
	for _, want := range []string{"  Content-Usage: train-ai=n, search=y\n", "  crawler GPTBot: OpenAI; training\n",
		"    Content-Usage in robots.txt: none applies where it may not crawl\n", "    Google's parser reads it as AI\n",
		"  crawler mybot: not in robotsmith's crawler catalogue\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("explain text lacks %q:\n%s", want, text)
		}
	}
}

// TestRobotsTxtFindingsSeeBlock: the findings of SPEC §7 read robots.txt as the run leaves it,
// robotsmith's block merged: a sitemap entry that only the block's Disallow keeps every crawler
// from is reported, naming the block's line in robots.txt, by check before anything is written
// and by build.
func TestRobotsTxtFindingsSeeBlock(t *testing.T) {
	dir := robotsSite(t, "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/blog/a/]\n", "User-agent: *\nAllow: /\n")
	writeTree(t, dir, map[string]string{"public/sitemap.xml": "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" +
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://example.org/blog/a/</loc></url>\n</urlset>\n"})
	// robots.txt after build: the user's two lines, a blank line, the begin marker, its comment,
	// a blank line, User-agent: * and the block's Disallow on line 8.
	want := "sitemap lists https://example.org/blog/a/, which robots.txt disallows for every crawler (" +
		filepath.Join(dir, "public", "robots.txt") + ":8: Disallow: /blog/a/)"
	for _, write := range []bool{false, true} {
		rep, err := Run(context.Background(), Options{Root: dir, Write: write})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(texts(rep.Findings), func(f string) bool { return strings.Contains(f, want) }) {
			t.Errorf("write %v: findings %q, want one containing %q", write, rep.Findings, want)
		}
	}
	if got := readTree(t, dir)["public/robots.txt"]; !strings.Contains(got, "\nDisallow: /blog/a/\n") || strings.Count(got, "\n") < 8 {
		t.Fatalf("robots.txt after build:\n%s", got)
	} else if line := strings.Split(got, "\n")[7]; line != "Disallow: /blog/a/" {
		t.Errorf("robots.txt line 8 is %q, want the block's Disallow", line)
	}
}
