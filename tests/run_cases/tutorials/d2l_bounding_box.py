# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_computer-vision/bounding-box.md: its PyTorch cells in order, as
# written, except that each cell's last bare expression (which the notebook shows) is printed, d2l.stack(x, axis=-1)
# is torch.stack(x, axis=-1) and d2l.tensor torch.tensor (as d2l/torch.py defines them), and the cells that read and
# draw the image (d2l.plt.imread of ../img/catdog.jpg, imshow, bbox_to_rect's Rectangle patches) are cut.
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_computer-vision/bounding-box.md
import torch

#@save
def box_corner_to_center(boxes):
    """Convert from (upper-left, lower-right) to (center, width, height)."""
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    cx = (x1 + x2) / 2
    cy = (y1 + y2) / 2
    w = x2 - x1
    h = y2 - y1
    boxes = torch.stack((cx, cy, w, h), axis=-1)
    return boxes

#@save
def box_center_to_corner(boxes):
    """Convert from (center, width, height) to (upper-left, lower-right)."""
    cx, cy, w, h = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    x1 = cx - 0.5 * w
    y1 = cy - 0.5 * h
    x2 = cx + 0.5 * w
    y2 = cy + 0.5 * h
    boxes = torch.stack((x1, y1, x2, y2), axis=-1)
    return boxes

# Here `bbox` is the abbreviation for bounding box
dog_bbox, cat_bbox = [60.0, 45.0, 378.0, 516.0], [400.0, 112.0, 655.0, 493.0]

boxes = torch.tensor((dog_bbox, cat_bbox))
print(box_center_to_corner(box_corner_to_center(boxes)) == boxes)
