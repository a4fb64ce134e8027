variant tiny-short "Tiny, no end"
extends tiny

end:
  remove game-ends
