lines = File.read("/dev/stdin").lines
File.open("/dev/stdout", "w") { |out| out.puts(lines.size == 8 ? 0 : 1) }
