// Shared by the run report and the history's trend page: how many sampled pixels of a chart's canvas have ink (-1
// when the canvas cannot be read), for the browser tests and for anyone reading the DOM.
function cpbenchInk(u) {
  try {
    const c = u.ctx.canvas, img = u.ctx.getImageData(0, 0, c.width, c.height).data;
    let inked = 0;
    for (let k = 3; k < img.length; k += 4 * 7) if (img[k] > 0) inked++;
    return inked;
  } catch (e) {
    return -1;
  }
}
