//go:build !linux

package testtool

import (
	"os"
	"testing"
)

// ReadOnly makes the folder dir read-only for the rest of the test: its mode becomes 0555. It skips
// the test when the process is root, which writes there anyway (Linux's ReadOnly mounts the folder
// read-only instead).
func ReadOnly(t testing.TB, dir string) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("root writes in a folder of mode 0555")
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
}
