package testtool

import (
	"os"
	"syscall"
	"testing"
)

// ReadOnly makes the folder dir read-only for the rest of the test, for every process, root
// included: root writes where file modes forbid it, so for root dir becomes a read-only bind mount
// of itself (the system then refuses any change below it, EROFS, as on a read-only volume); for
// anyone else its mode becomes 0555 (EACCES). It skips the test where neither can be done (root
// without the right to mount, in a container). The folder is made writable again when the test
// ends, before t.TempDir removes it.
func ReadOnly(t testing.TB, dir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return
	}
	if err := syscall.Mount(dir, dir, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot make %s read-only as root: bind mount: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmounting %s: %v", dir, err)
		}
	})
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot make %s read-only as root: remount: %v", dir, err)
	}
}
