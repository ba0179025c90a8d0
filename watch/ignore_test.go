package watch

import "testing"

func TestTemporary(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		// robotsmith's own files (a build writes beside the file, then renames)
		{".robotsmith-12.tmp", true},
		{".robotsmith-3.old", true},
		{".robotsmith-journal", true},
		{".robotsmith-done", true},
		{".robotsmith-page.html", false}, // the site's, whatever it starts with
		// vim: swap files, backups, the writability probe
		{".a.md.swp", true},
		{".a.md.swo", true},
		{".a.md.swx", true},
		{"a.md~", true},
		{"4913", true},
		{"5036", true}, // 4913 + 123, when 4913 is taken
		{"4914", false},
		{"04913", false},
		// BSD sed -i (macOS): .!PID!NAME beside the file
		{".!4242!a.md", true},
		{".!x!a.md", false},
		{".!4242!", false},
		// emacs: lock links and auto-save files
		{".#a.md", true},
		{"#a.md#", true},
		// JetBrains safe write
		{"a.md___jb_tmp___", true},
		{"a.md___jb_old___", true},
		// gedit / GIO atomic save
		{".goutputstream-ABC123", true},
		// Kate, LibreOffice, browser-based editors
		{".a.md.kate-swp", true},
		{".~lock.a.odt#", true},
		{"a.md.crswap", true},
		// atomic-save tools and nano
		{"a.md.tmp", true},
		{"a.md.TMP", true},
		{"index.html.temp", true},
		{"a.md.swp", true},
		// real files
		{"index.html", false},
		{"_headers", false},
		{"robots.txt", false},
		{"sitemap.xml", false},
		{"tmp", false},
		{"swp", false},
		{".htaccess", false},
		{"#", false},
		{"##", false},
		{"2024", false},
		{".swp", true}, // every name ending in .swp
		{"a.sw", false},
		{"résumé.html", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Temporary(tc.name); got != tc.want {
				t.Errorf("Temporary(%q) = %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}

func TestFleeting(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"sedWRLyiX", true}, // GNU sed -i's mkstemp name
		{"sed0a9Zzq", true},
		{"sedatives", true}, // the name alone cannot tell: left out only once it is gone
		{"sedWRLyi", false},
		{"sedWRLyiXY", false},
		{"sedWRL.iX", false},
		{"SedWRLyiX", false},
		{"sed", false},
		{"index.html", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fleeting(tc.name); got != tc.want {
				t.Errorf("Fleeting(%q) = %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}
