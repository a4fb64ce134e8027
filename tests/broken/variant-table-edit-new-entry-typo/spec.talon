variant points-x "Points, x"
extends points

tables:
  set values minimum-bd to 70
  remove values minimum-bid
