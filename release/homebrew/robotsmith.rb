# Homebrew formula for robotsmith, built from source with Go (Homebrew's go formula).
#
# Before robotsmith is published, install it from a clone:
#   brew install --HEAD --build-from-source ./release/homebrew/robotsmith.rb
# A release writes dist/homebrew/robotsmith.rb (release/assemble), this formula with the release's
# tag and commit filled in, for the tap to publish; `brew install robotsmith/tap/robotsmith` then
# builds that tag.
class Robotsmith < Formula
  desc "Makes a static site's robots meta tags, X-Robots-Tag, sitemaps and robots.txt agree"
  homepage "https://github.com/robotsmith/robotsmith"
  # RELEASE: url and version lines are written here by release/assemble.
  license "MIT"
  head "https://github.com/robotsmith/robotsmith.git", branch: "main"

  depends_on "go" => :build

  def install
    ldflags = %W[-s -w -X main.version=#{version}]
    system "go", "build", *std_go_args(ldflags:)
  end

  test do
    assert_match "robotsmith", shell_output("#{bin}/robotsmith version")
    (testpath/"public/index.html").write "<!doctype html><html><head><title>t</title></head><body></body></html>\n"
    system bin/"robotsmith", "build", testpath/"public"
    assert_match '<meta name="robots" content="index, follow">', (testpath/"public/index.html").read
  end
end
