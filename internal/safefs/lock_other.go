//go:build !unix

package safefs

import (
	"context"
	"os"
)

// lockDir: folders cannot be locked here; two robotsmith runs on one output
// at once are not excluded.
func lockDir(ctx context.Context, dir string) (*os.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return os.Open(dir)
}

// syncDir: a folder cannot be synced here; the file's own sync has to do.
func syncDir(*os.File) error { return nil }
