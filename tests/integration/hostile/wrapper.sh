# A correct shell-wrapped submission (a folder: main.sh beside burn): three short steps of
# 0.25 s of CPU, then the answer.
d=$(dirname "$0")
for step in 1 2 3; do "$d/burn" 250; done
cat > /dev/null
echo 0
