package serve

import (
	"net/http"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/robotsmith/robotsmith/headers"
	"github.com/robotsmith/robotsmith/internal/safefs"
)

// answer is what a host answers for a request's path: a file (with status 200, or 404 for the
// 404 page), a redirect, or nothing (a plain 404).
type answer struct {
	file     string // the file served, relative to the folder
	status   int
	location string // the redirect's target path, not encoded
	// match is the path (decoded) the host matches its header rules with; "" for the request's.
	match string
}

// resolve finds what the host of format f answers for the request path p (decoded, "/"-rooted,
// no ".." element), the way its server maps paths to the folder's files (TestHosts compares each
// with netlify dev and wrangler pages dev).
func resolve(root *os.Root, f headers.Format, p string) answer {
	name := strings.TrimPrefix(p, "/")
	if f == headers.Cloudflare {
		if hidden(name) {
			return notFound(root, f, name)
		}
		return resolveCloudflare(root, name)
	}
	return resolveNetlify(root, p)
}

// hidden reports the files Cloudflare reads and never serves, and robotsmith's temporary files
// (netlify dev serves _headers as a file; see isFile for what robotsmith never serves).
func hidden(name string) bool {
	switch name {
	case "_headers", "_redirects", "_routes.json", "_worker.js":
		return true
	}
	return safefs.Own(path.Base(name))
}

// resolveNetlify is netlify dev's static serving (netlify-cli's getStatic and
// alternativePathsFor): the path's file, else, for a path that ends in "/", its .html and .htm
// files then its folder's index.html and index.htm, and for one without an extension of a common
// asset, its .html, .htm, then its folder's index.html and index.htm; a folder is served without
// a redirect to its slash. Netlify matches its header rules with the path of the file it serves;
// for a path no file answers, with the last path it tried (its 404.html is served, status 404).
func resolveNetlify(root *os.Root, p string) answer {
	tries := []string{p}
	switch {
	case strings.HasSuffix(p, "/"):
		if p != "/" {
			base := strings.TrimSuffix(p, "/")
			tries = append(tries, base+".html", base+".htm")
		}
		tries = append(tries, p+"index.html", p+"index.htm")
	case !netlifyAsset.MatchString(p):
		tries = append(tries, p+".html", p+".htm", p+"/index.html", p+"/index.htm")
	}
	for _, t := range tries {
		if name := strings.TrimPrefix(t, "/"); isFile(root, name) {
			return answer{file: name, status: http.StatusOK, match: t}
		}
	}
	a := notFound(root, headers.Netlify, strings.TrimPrefix(p, "/"))
	a.match = tries[len(tries)-1]
	return a
}

// netlifyAsset is netlify-cli's assetExtensionRegExp: paths it looks for as they are only.
var netlifyAsset = regexp.MustCompile(`\.(html?|png|jpg|js|css|svg|gif|ico|woff|woff2)$`)

// resolveCloudflare is Cloudflare Pages' html_handling "auto-trailing-slash": a page is served
// at its address without .html (/about for about.html, /docs/ for docs/index.html), and asked for
// by its file's name it is redirected there; other files are served as they are; else the
// nearest 404.html, or, on a site with none, the home page (a single-page application).
func resolveCloudflare(root *os.Root, name string) answer {
	redirect := func(to string) answer {
		return answer{location: "/" + to, status: http.StatusPermanentRedirect}
	}
	switch {
	case name == "index.html" || strings.HasSuffix(name, "/index.html"):
		if isFile(root, name) {
			return redirect(strings.TrimSuffix(name, "index.html"))
		}
	case strings.HasSuffix(name, ".html"):
		if isFile(root, name) {
			return redirect(strings.TrimSuffix(name, ".html"))
		}
	case name == "" || strings.HasSuffix(name, "/"):
		if isFile(root, name+"index.html") {
			return answer{file: name + "index.html", status: http.StatusOK}
		}
		if trimmed := strings.TrimSuffix(name, "/"); trimmed != "" && isFile(root, trimmed+".html") {
			return redirect(trimmed)
		}
	case isFile(root, name):
		return answer{file: name, status: http.StatusOK}
	case isFile(root, name+".html"):
		return answer{file: name + ".html", status: http.StatusOK}
	case isFile(root, name+"/index.html"):
		return redirect(name + "/")
	}
	return notFound(root, headers.Cloudflare, name)
}

// notFound is the host's answer for a path no file answers: Netlify's 404.html at the top;
// Cloudflare's nearest 404.html up the path, else, on a site without any 404.html, its home page
// with status 200.
func notFound(root *os.Root, f headers.Format, name string) answer {
	if f == headers.Netlify {
		if isFile(root, "404.html") {
			return answer{file: "404.html", status: http.StatusNotFound}
		}
		return answer{status: http.StatusNotFound}
	}
	dir := path.Dir(strings.TrimSuffix(name, "/"))
	for {
		if dir == "." {
			dir = ""
		}
		p := path.Join(dir, "404.html")
		if isFile(root, p) {
			return answer{file: p, status: http.StatusNotFound}
		}
		if dir == "" {
			break
		}
		dir = path.Dir(dir)
	}
	if isFile(root, "index.html") {
		return answer{file: "index.html", status: http.StatusOK}
	}
	return answer{status: http.StatusNotFound}
}

// isFile reports whether name is a regular file in the folder (a link inside it is followed;
// one out of it is not: os.Root).
func isFile(root *os.Root, name string) bool {
	if name == "" || hidden(name) {
		return false
	}
	fi, err := root.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}
