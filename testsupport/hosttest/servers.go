package hosttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// The real servers a static site is served by (Debian's nginx, apache2 and caddy packages, which
// .ci/run installs), each started by ServeServer on a free 127.0.0.1 port with a configuration
// written into a temporary folder: no system configuration is read or touched, and each runs in
// the foreground in its own process group, killed when the test ends.

// ServeServer serves the folder root with h (Nginx, Apache or Caddy). include is what goes inside
// the server (nginx) or site (Caddy) block: the line that brings robotsmith's file into the
// server's configuration (headers.NginxInclude, headers.CaddyImport), after any lines of the
// site's own configuration that a test needs served beside it (a header of its own). Apache reads
// root's .htaccess, and include must be "". A server that is not installed goes through
// testtool.Missing.
func ServeServer(t testing.TB, h Host, root, include string) *Server {
	t.Helper()
	work := t.TempDir()
	// The folders are written into the configurations as they are, root in double quotes and work
	// bare: a quote, backslash, '$' or brace would be read as the servers' syntax (a variable, a
	// placeholder), and the server would serve another folder or none.
	if strings.ContainsAny(root, "\"\\${}\n") || strings.ContainsAny(work, "\"\\${}\n ") {
		t.Fatalf("hosttest: ServeServer cannot write %q or %q into a server's configuration as it is", root, work)
	}
	port := testtool.FreePort(t)
	var args, env []string
	switch h {
	case Nginx:
		nginx := lookServer(t, "nginx", "nginx")
		conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log stderr;
events {}
http {
    access_log off;
    client_body_temp_path %[1]s/tmp; proxy_temp_path %[1]s/tmp; fastcgi_temp_path %[1]s/tmp;
    uwsgi_temp_path %[1]s/tmp; scgi_temp_path %[1]s/tmp;
    server {
        listen 127.0.0.1:%[2]d;
        root "%[3]s";
        %[4]s
    }
}
`, work, port, root, include)
		writeConf(t, filepath.Join(work, "nginx.conf"), conf)
		args = []string{nginx, "-p", work, "-c", filepath.Join(work, "nginx.conf"), "-e", "stderr"}
	case Apache:
		if include != "" {
			t.Fatalf("hosttest: Apache reads robotsmith's file from the site's .htaccess; include must be \"\", not %q", include)
		}
		apache := lookServer(t, "apache2", "apache2")
		const modules = "/usr/lib/apache2/modules"
		if _, err := os.Stat(filepath.Join(modules, "mod_headers.so")); err != nil {
			testtool.Missing(t, "Apache's modules are not in %s: apt-get install apache2", modules)
		}
		if err := os.MkdirAll(filepath.Join(work, "run"), 0o755); err != nil {
			t.Fatal(err)
		}
		var mods strings.Builder
		for _, m := range []string{"mpm_event", "authz_core", "mime", "dir", "headers"} {
			fmt.Fprintf(&mods, "LoadModule %s_module %s/mod_%s.so\n", m, modules, m)
		}
		conf := fmt.Sprintf(`ServerRoot "%[1]s"
DefaultRuntimeDir "%[1]s/run"
%[4]sListen 127.0.0.1:%[2]d
PidFile "%[1]s/httpd.pid"
ErrorLog "%[1]s/error.log"
ServerName localhost
TypesConfig /dev/null
DocumentRoot "%[3]s"
DirectoryIndex index.html
<Directory />
    AllowOverride None
    Require all denied
</Directory>
<Directory "%[3]s">
    AllowOverride FileInfo
    Require all granted
</Directory>
# As Debian's apache2.conf: .htaccess is never served.
<FilesMatch "^\.ht">
    Require all denied
</FilesMatch>
`, work, port, root, mods.String())
		writeConf(t, filepath.Join(work, "httpd.conf"), conf)
		args = []string{apache, "-f", filepath.Join(work, "httpd.conf"), "-X"}
		t.Cleanup(func() {
			if t.Failed() {
				log, _ := os.ReadFile(filepath.Join(work, "error.log"))
				t.Logf("apache error.log:\n%s", log)
			}
		})
	case Caddy:
		caddy := lookServer(t, "caddy", "caddy")
		conf := fmt.Sprintf(`{
	admin off
	auto_https off
	storage file_system %[1]s/data
}
http://127.0.0.1:%[2]d {
	root * "%[3]s"
	%[4]s
	file_server
}
`, work, port, root, include)
		writeConf(t, filepath.Join(work, "Caddyfile"), conf)
		args = []string{caddy, "run", "--config", filepath.Join(work, "Caddyfile"), "--adapter", "caddyfile"}
		env = []string{"HOME=" + work, "XDG_CONFIG_HOME=" + work, "XDG_DATA_HOME=" + work}
	default:
		t.Fatalf("hosttest: %v is not a server ServeServer starts", h)
	}
	s := &Server{Host: h, Base: fmt.Sprintf("http://127.0.0.1:%d", port), log: &testtool.Output{}}
	s.start(t, work, args, env)
	return s
}

func writeConf(t testing.TB, name, conf string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lookServer finds a server's binary on PATH or in /usr/sbin (where Debian puts nginx and apache2,
// which a user's PATH may not hold), or calls testtool.Missing.
func lookServer(t testing.TB, name, pkg string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if p := "/usr/sbin/" + name; fileExists(p) {
		return p
	}
	testtool.Missing(t, "%s not found: apt-get install %s (as .ci/run does)", name, pkg)
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
