package watch

import (
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/internal/safefs"
)

// Temporary reports whether a file's base name is a temporary file: robotsmith's own (its
// temporary files, originals kept until a build commits, journal: safefs.Own), or one that an
// editor writes beside the file it saves (swap, backup, lock and atomic-save files). Such a file is
// never content and lives for a moment; reporting it would only make noise.
func Temporary(name string) bool {
	switch {
	case safefs.Own(name):
		return true
	case strings.HasSuffix(name, "~"): // vim and emacs backups: page.md~
		return true
	case strings.HasPrefix(name, ".#"): // emacs lock links: .#page.md
		return true
	case len(name) > 2 && name[0] == '#' && name[len(name)-1] == '#': // emacs auto-save: #page.md#
		return true
	case vimSwap(name):
		return true
	case vimProbe(name):
		return true
	case strings.HasSuffix(name, "___jb_tmp___"), strings.HasSuffix(name, "___jb_old___"): // JetBrains "safe write"
		return true
	case strings.HasPrefix(name, ".goutputstream-"): // gedit and other GIO programs saving atomically
		return true
	case strings.HasSuffix(name, ".kate-swp"): // Kate
		return true
	case strings.HasPrefix(name, ".~lock.") && strings.HasSuffix(name, "#"): // LibreOffice
		return true
	case strings.HasSuffix(name, ".crswap"): // browsers' File System Access saves (web editors)
		return true
	case bsdSed(name):
		return true
	}
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 {
		return false
	}
	switch strings.ToLower(name[dot+1:]) {
	case "tmp", "temp", "swp": // atomic-save tools and nano: page.md.tmp, page.md.swp
		return true
	}
	return false
}

// vimSwap reports vim's (and nano's) hidden swap files: .page.md.swp, then .swo, .swn, ... down to
// .swa, and .swx when vim probes whether it may create one.
func vimSwap(name string) bool {
	if !strings.HasPrefix(name, ".") || len(name) < 5 {
		return false
	}
	ext := name[len(name)-4:]
	return ext[:3] == ".sw" && ext[3] >= 'a' && ext[3] <= 'x'
}

// vimProbe reports the file vim creates and deletes to learn whether it may write in a folder
// (with 'backupcopy' auto): "4913", or 4913 plus a multiple of 123 when that name is taken.
func vimProbe(name string) bool {
	n, err := strconv.Atoi(name)
	return err == nil && n >= 4913 && (n-4913)%123 == 0 && strconv.Itoa(n) == name
}

// vcsFolder reports the metadata folders of version control systems, which are never part of a
// site and can hold thousands of folders that would each need a watch.
func vcsFolder(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", ".bzr", "_darcs", ".jj":
		return true
	}
	return false
}

// bsdSed reports the file BSD sed -i (macOS) writes beside the file it edits and renames over it:
// ".!PID!NAME".
func bsdSed(name string) bool {
	rest, ok := strings.CutPrefix(name, ".!")
	if !ok {
		return false
	}
	pid, file, ok := strings.Cut(rest, "!")
	_, err := strconv.ParseUint(pid, 10, 32)
	return ok && err == nil && file != ""
}

// Fleeting reports whether a file's base name is one that a tool gives a file it writes and at
// once renames over the file it edits, and that is too much like a name of the site's own to be
// left out by name alone: GNU sed -i's "sedXXXXXX" (mkstemp's six letters and digits, in the
// edited file's folder). A change of such a file is left out of a batch only when the file is
// gone by then; one that stays ("sedatives") is the site's.
func Fleeting(name string) bool {
	rest, ok := strings.CutPrefix(name, "sed")
	if !ok || len(rest) != 6 {
		return false
	}
	for _, c := range []byte(rest) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
