package plan

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/problem"
)

// Hosts are the hosts whose files a run writes X-Robots-Tag into (headers.format), resolved once
// when the plan is opened: auto is read from the host files the site's folder has.
type Hosts struct {
	// List are the hosts, each once, in the order the configuration names them (auto: the order
	// of headers.Hosts).
	List []headers.Host
	// None says why no host sends a header of the site's ("headers.format is none", "a GitHub
	// Pages site: ..."); "" when List names the hosts.
	None string
	// Auto lists the files auto picked the hosts from, for the summary; nil without auto.
	Auto []string
	// orGitHub: auto found no host's file, and picked netlify unless the output has a CNAME
	// file, which marks a GitHub Pages site (Plan.Hosts).
	orGitHub bool
}

// autoFiles are the host files auto looks for in the site's folder, and the host each names.
var autoFiles = []struct {
	name string
	host headers.Host
}{
	{"netlify.toml", headers.HostNetlify},
	{"wrangler.toml", headers.HostCloudflare},
	{"wrangler.json", headers.HostCloudflare},
	{"wrangler.jsonc", headers.HostCloudflare},
	{"vercel.json", headers.HostVercel},
	{"firebase.json", headers.HostFirebase},
}

// gitHubPages is what marks a GitHub Pages site, which sends no header of the site's: a CNAME file
// (the custom domain GitHub Pages serves the site at) and no other host's file.
const gitHubPages = "CNAME"

// resolveHosts reads headers.format: the default (netlify), the formats named, none, or auto from
// the files in root, the site's folder.
func resolveHosts(cfg *config.Config, root string) (Hosts, error) {
	var h Hosts
	switch cfg.Headers.Format() {
	case "none":
		h.None = "headers.format is none"
		return h, nil
	case "auto":
		return autoHosts(cfg, root)
	}
	if len(cfg.Headers.Formats) == 0 {
		h.List = []headers.Host{headers.HostNetlify}
		return h, nil
	}
	for _, f := range cfg.Headers.Formats {
		host, err := headers.ParseHost(f)
		if err != nil {
			return h, err // the configuration read only names hosts
		}
		h.List = append(h.List, host)
	}
	return h, nil
}

func autoHosts(cfg *config.Config, root string) (Hosts, error) {
	h := Hosts{Auto: []string{}}
	found := map[headers.Host]string{}
	for _, a := range autoFiles {
		if fi, err := os.Stat(filepath.Join(root, a.name)); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		h.Auto = append(h.Auto, a.name)
		if _, ok := found[a.host]; !ok {
			found[a.host] = a.name
			h.List = append(h.List, a.host)
		}
	}
	if n, c := found[headers.HostNetlify], found[headers.HostCloudflare]; n != "" && c != "" {
		return h, problem.Newf(problem.HeaderFormatsConflict, problem.Position{File: cfg.File, Line: cfg.Headers.FormatsLine},
			"headers: format: auto finds both %s and %s, and Netlify and Cloudflare Pages read _headers each in its own dialect; name the format of the host the site is deployed to", n, c)
	}
	if len(h.List) > 0 {
		return h, nil
	}
	if fi, err := os.Stat(filepath.Join(root, gitHubPages)); err == nil && fi.Mode().IsRegular() {
		h.Auto = append(h.Auto, gitHubPages)
		h.None = gitHubNone(gitHubPages)
		return h, nil
	}
	h.List, h.orGitHub = []headers.Host{headers.HostNetlify}, true
	return h, nil
}

func gitHubNone(cname string) string {
	return "a GitHub Pages site (" + cname + ", and no other host's file; headers.format is auto), which sends no header of the site's"
}

// Hosts are the hosts whose files the run writes. outputCNAME says that the output has a CNAME
// file at its root, which, when auto found no host's file in the site's folder, marks a GitHub
// Pages site: Hugo copies static/CNAME there.
func (p *Plan) Hosts(outputCNAME string) Hosts {
	h := p.hosts
	if h.orGitHub && outputCNAME != "" {
		h.List, h.None = nil, gitHubNone(strings.TrimPrefix(outputCNAME, "./"))
		h.Auto = append(h.Auto[:len(h.Auto):len(h.Auto)], outputCNAME)
	}
	return h
}
