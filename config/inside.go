package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/robotsmith/robotsmith/problem"
)

// ErrOutside is returned (in an *Error) by CheckInside for an output or content folder that leads
// outside the site's folder.
var ErrOutside error = problem.New(problem.ConfigOutsideSite, problem.Position{}, "leads outside the site's folder")

// CheckInside checks that the folders the configuration names, output and content, are inside the
// site's folder root, once every symbolic link on the way to them is followed (SPEC §2): a
// configuration copied from another site, whose `output: ../..` once named that site's output, must
// never make robotsmith rewrite another site's pages or read its sources. The folder itself may be a
// link that leads elsewhere (`public -> /srv/www/site`): that link is the site's own, made by its
// owner, and a linked output folder is followed (SPEC §1), so only the way to it is judged. A folder
// that does not exist yet (the generator has not run) is judged by where it would be. With
// outputFlag, --output names the output on the command line and the configuration's output is not
// used, so it is not judged. The generator's own configuration (Hugo's publishDir, Jekyll's
// destination) is not judged here: the generator writes there itself, and robotsmith follows it.
//
// Relative folders are taken from root, as the site reads them, wherever the configuration file
// is (--config).
func (c *Config) CheckInside(root string, outputFlag bool) error {
	var errs []error
	site, err := resolved(root)
	if err != nil {
		return err
	}
	check := func(key, value string, line int, hint string) {
		if value == "" {
			return
		}
		p := value
		if !filepath.IsAbs(p) {
			p = root + string(filepath.Separator) + p
		}
		where, err := resolvedParent(p)
		if err != nil {
			errs = append(errs, &Error{File: c.File, Line: line, Code: problem.ConfigOutsideSite, Err: fmt.Errorf("%s: %s: %w", key, quote(value), err)})
			return
		}
		if rel, err := filepath.Rel(site, where); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return
		}
		errs = append(errs, &Error{File: c.File, Line: line,
			Err: fmt.Errorf("%s: %s is %s, which %w %s: %s", key, quote(value), where, ErrOutside, site, hint)})
	}
	if !outputFlag {
		check("output", c.Output, c.outputLine, "a configuration copied from another site would make robotsmith rewrite that site's pages; to process that folder, name it with --output")
	}
	check("content", c.Content, c.contentLine, "a configuration copied from another site would make robotsmith read that site's pages")
	return errors.Join(errs...)
}

// resolvedParent is where p is once the links on the way to it are followed, p's last element, the
// folder itself, taken as it is even when it is a link: `public` as public, `out/public` as the folder
// `out` leads to, with public in it. A path that ends in `..` or `.` names no element of its own and
// is resolved whole.
func resolvedParent(p string) (string, error) {
	dir, base := filepath.Split(p)
	if base == "" || base == "." || base == ".." {
		return resolved(p)
	}
	parent, err := resolved(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, base), nil
}

// maxLinks is how many symbolic links resolved follows before it gives up, as the system does
// (Linux's limit is 40).
const maxLinks = 40

// resolved is the absolute path that opening p would reach: every symbolic link on the way
// followed, `..` taken after the link before it, as the system takes it (so `link/../x` is beside
// the link's target, not beside the link). The part of p that does not exist is taken as written.
func resolved(p string) (string, error) {
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		p = wd + string(filepath.Separator) + p
	}
	vol := filepath.VolumeName(p)
	out := vol + string(filepath.Separator)
	rest := strings.Split(filepath.ToSlash(p[len(vol):]), "/")
	for links := 0; len(rest) > 0; {
		part := rest[0]
		rest = rest[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			out = filepath.Dir(out)
			continue
		}
		next := filepath.Join(out, part)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			// Nothing below a missing folder exists, so no link is there to follow.
			return filepath.Join(append([]string{next}, rest...)...), nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			out = next
			continue
		}
		if links++; links > maxLinks {
			return "", &fs.PathError{Op: "resolve", Path: p, Err: syscall.ELOOP}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			vol = filepath.VolumeName(target)
			out, target = vol+string(filepath.Separator), target[len(vol):]
		}
		rest = append(strings.Split(filepath.ToSlash(target), "/"), rest...)
	}
	return out, nil
}
