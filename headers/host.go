package headers

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/internal/excerpt"
	"github.com/robotsmith/robotsmith/problem"
)

// Host is a host robotsmith writes X-Robots-Tag for, each in the file that host reads: the
// configuration's headers.format names them.
type Host uint8

const (
	HostNetlify    Host = iota + 1 // _headers, Netlify's dialect
	HostCloudflare                 // _headers, Cloudflare Pages' dialect
	HostVercel                     // vercel.json's headers, in the site's folder
	HostFirebase                   // firebase.json's hosting.headers, in the site's folder
	HostApache                     // robotsmith's block of the output's .htaccess
	HostNginx                      // robotsmith.nginx.conf at the output's root, included by the server block
	HostCaddy                      // robotsmith.caddy at the output's root, imported by the site block
)

// Hosts are every Host, in the order robotsmith writes their files.
var Hosts = []Host{HostNetlify, HostCloudflare, HostVercel, HostFirebase, HostApache, HostNginx, HostCaddy}

var hostNames = [...]string{HostNetlify: "netlify", HostCloudflare: "cloudflare", HostVercel: "vercel",
	HostFirebase: "firebase", HostApache: "apache", HostNginx: "nginx", HostCaddy: "caddy"}

// String returns the name ParseHost reads: "netlify", "vercel", ...
func (h Host) String() string {
	if int(h) < len(hostNames) && hostNames[h] != "" {
		return hostNames[h]
	}
	return fmt.Sprintf("Host(%d)", int(h))
}

// ParseHost reads a host's name as the configuration writes it (any case, surrounding space
// ignored).
func ParseHost(s string) (Host, error) {
	w := strings.ToLower(strings.TrimSpace(s))
	for _, h := range Hosts {
		if hostNames[h] == w {
			return h, nil
		}
	}
	return 0, problem.Newf(problem.HeaderFormatUnknown, problem.Position{}, "headers: unknown format %s (want one of %s)", excerpt.Quote(s), strings.Join(hostNames[1:], ", "))
}

// File is the name of the file the host reads: "_headers", "vercel.json", ".htaccess", ...
func (h Host) File() string {
	switch h {
	case HostNetlify, HostCloudflare:
		return "_headers"
	case HostVercel:
		return VercelFile
	case HostFirebase:
		return FirebaseFile
	case HostApache:
		return ApacheFile
	case HostNginx:
		return NginxFile
	case HostCaddy:
		return CaddyFile
	}
	return ""
}

// Dialect is the `_headers` dialect of Netlify and Cloudflare Pages; ok is false for the hosts
// that read another file.
func (h Host) Dialect() (f Format, ok bool) {
	switch h {
	case HostNetlify:
		return Netlify, true
	case HostCloudflare:
		return Cloudflare, true
	}
	return 0, false
}

// InSite reports whether the host's file is in the site's own folder, beside the configuration,
// rather than in the output: vercel.json and firebase.json, which the host reads from the project
// and the owner keeps in the repository.
func (h Host) InSite() bool { return h == HostVercel || h == HostFirebase }

// Server reports whether the host's file is one the server's own configuration includes (nginx,
// Caddy): it is written on every build, rules or none, so that the include never names a missing
// file.
func (h Host) Server() bool { return h == HostNginx || h == HostCaddy }

// Write is the host's writer (Vercel, Firebase, Apache, Nginx, Caddy); nil for the `_headers`
// hosts, which Block writes.
func (h Host) Write() func(Files, Options) (Result, error) {
	switch h {
	case HostVercel:
		return Vercel
	case HostFirebase:
		return Firebase
	case HostApache:
		return Apache
	case HostNginx:
		return Nginx
	case HostCaddy:
		return Caddy
	}
	return nil
}
