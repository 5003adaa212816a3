#!/bin/sh
# Regenerates screenshots/*.png from the real renderer and the fixed fixture fleet:
# the ignored test renders each screen to screenshots/NAME.html, then headless Chromium
# photographs each page. Needs `chromium` (Debian package), fonts-dejavu-core and
# fonts-noto-cjk (the Chinese pages).
set -eu
cd "$(dirname "$0")/.."
cargo test --lib tui::screenshots -- --ignored --exact tui::screenshots::write_screenshot_pages
for page in screenshots/*.html; do
    name=$(basename "$page" .html)
    case "${name#zh-CN-}" in
        cluster|capacity-cluster-what-if|help) size=1780,1060 ;;
        findings) size=1780,700 ;;
        too-small) size=420,300 ;;
        palette) size=1260,640 ;;
        rollouts|maintenance|timeline) size=1780,660 ;;
        approve|hand-off|handover) size=1420,660 ;;
        *) size=1780,660 ;;
    esac
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size="$size" --screenshot="screenshots/$name.png" "file://$PWD/$page" 2>/dev/null
done
rm -f screenshots/*.html
ls -l screenshots/*.png
