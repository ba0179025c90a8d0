package safefs

import "testing"

// TestOpenBeneath: on Linux a Folder opens a plain regular file in one call, a folder link on
// the way included, and leaves everything else to OpenIn (TestOpenIn checks what OpenIn answers).
func TestOpenBeneath(t *testing.T) {
	dir, _, folder := specialFolder(t)
	if folder.dir == nil {
		t.Skip("this kernel has no openat2 (Linux 5.6 and later): every open goes through OpenIn")
	}
	for name, want := range map[string]bool{
		"real/page.html":    true,
		"dirlink/page.html": true, // a folder link inside the folder, as os.Root follows it
		"inside.html":       false,
		"outside.html":      false,
		"loop1.html":        false,
		"fifo.html":         false,
		"real":              false,
		"../x.html":         false,
		"/etc/hostname":     false,
		"missing.html":      false,
	} {
		f, _, ok := openBeneath(folder.dir, dir, name)
		if ok != want {
			t.Errorf("%s: opened in one call %v, want %v", name, ok, want)
		}
		if f != nil {
			f.Close()
		}
	}
}
