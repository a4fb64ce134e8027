variant points-x "Points, x"
extends points

tables:
  remove values minimum-bd
