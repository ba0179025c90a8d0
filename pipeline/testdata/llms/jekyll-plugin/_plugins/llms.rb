# Writes llms.txt and llms-full.txt once the site is written, and a Markdown alternate beside each
# page (X.md for X/index.html). Every page with a title is listed, whatever its robots front matter
# says: this plug-in does not read robotsmith's key, as the plug-ins found on real sites do not.
Jekyll::Hooks.register :site, :post_write do |site|
  pages = site.pages.select { |p| p.data["title"] && p.url.start_with?("/en/") }.sort_by(&:url)
  index = +"# #{site.config["title"]}\n\n> A site built by Jekyll with a plug-in that writes llms.txt.\n"
  full = +"# #{site.config["title"]}\n"
  pages.group_by { |p| p.url.split("/")[2] }.each do |section, list|
    index << "\n## #{section.capitalize}\n\n"
    list.each do |p|
      md = p.url.chomp("/") + ".md"
      File.write(site.in_dest_dir(md), "# #{p.data["title"]}\n\n#{p.content.strip}\n")
      index << "- [#{p.data["title"]}](#{site.config["url"]}#{md}): #{p.data["description"]}\n"
      full << "\n---\n\n# #{p.data["title"]}\n\nSource: #{site.config["url"]}#{md}\n\n#{p.content.strip}\n"
    end
  end
  File.write(site.in_dest_dir("llms.txt"), index)
  File.write(site.in_dest_dir("llms-full.txt"), full)
end
