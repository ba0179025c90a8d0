package pipeline

import (
	"context"
	"strings"
	"testing"
)

// TestSourceAgentTagMerged: an agent that only the page's front matter names is looked for in the
// page's one scan, so a tag of that name the theme wrote is merged (SPEC §5: tags the page carries
// are one more source), not removed unread.
func TestSourceAgentTagMerged(t *testing.T) {
	dir := t.TempDir()
	tagged := strings.Replace(page, "<title>", "<meta name=\"acme-indexer\" content=\"nofollow\">\n<title>", 1)
	writeTree(t, dir, map[string]string{
		"hugo.toml":           "baseURL = \"https://example.org/\"\n",
		"content/a.md":        "---\ntitle: A\nrobots:\n  acme-indexer: noarchive\n---\nbody\n",
		"public/a/index.html": tagged,
	})
	if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, dir)["public/a/index.html"]
	if !strings.Contains(got, `<meta name="acme-indexer" content="index, nofollow, noarchive">`) {
		t.Errorf("the page's acme-indexer tag was not merged with its front matter:\n%s", got)
	}
}
